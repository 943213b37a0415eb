import { stripVTControlCharacters } from 'node:util'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { toHaveCalledTool, toHaveToolCalls } from '../../matchers'
import { runInTest } from '../../matchers/current-test'
import { toolCalls } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'

expect.extend({ toHaveCalledTool, toHaveToolCalls })

let server: FakeOpenAI | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const lookup = { id: 'call_1', name: 'lookup_order', arguments: '{"id":"A1","verbose":true}' }
const refund = { id: 'call_2', name: 'refund', arguments: '{"amount":10}' }

function failureOf(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return stripVTControlCharacters((error as Error).message)
  }
  throw new Error('The assertion passed.')
}

test('toHaveCalledTool reads an OpenAI chat completion, arguments compared as a subset', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.text('', { toolCalls: [lookup] }) })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const completion = await client.chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Where is A1?' }],
  })
  expect(completion).toHaveCalledTool('lookup_order')
  expect(completion).toHaveCalledTool('lookup_order', { id: 'A1' })
  expect(completion).toHaveCalledTool('lookup_order', { id: expect.stringMatching(/^A/) })
  expect(completion).not.toHaveCalledTool('lookup_order', { id: 'B2' })
  expect(completion).not.toHaveCalledTool('refund')
})

test('toHaveToolCalls reads the function_call items of an OpenAI Responses object', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.text('', { toolCalls: [lookup, refund] }) })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const response = await client.responses.create({ model: 'gpt-test', input: 'Refund A1' })
  expect(response).toHaveToolCalls(['lookup_order', { name: 'refund', args: { amount: 10 } }])
  expect(response).not.toHaveToolCalls(['refund', 'lookup_order'])
  expect(response).toHaveToolCalls(['refund', 'lookup_order'], { ordered: false })
  expect(response).not.toHaveToolCalls([{ name: 'lookup_order', args: { id: 'A1' } }, 'refund'], {
    args: 'exact',
  })
})

// An AI SDK agent on the default OpenAI model (the Responses API) that looks an order up, then
// answers: two steps, two requests.
async function orderAgent(stream: boolean) {
  server = await startFakeOpenAI({
    reply: (request) =>
      request.index === 0
        ? fakeReply.text('', {
            toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: '{"id":"A1"}' }],
          })
        : 'Order A1 ships tomorrow.',
  })
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const options = {
    model: provider('gpt-test'),
    prompt: 'Where is order A1?',
    tools: {
      lookup_order: tool({
        description: 'Look an order up',
        inputSchema: jsonSchema<{ id: string }>({
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
        }),
        execute: async ({ id }) => ({ id, status: 'ships tomorrow' }),
      }),
    },
    stopWhen: stepCountIs(3),
    maxRetries: 0,
  }
  return stream ? streamText(options) : await generateText(options)
}

test('an AI SDK generateText result on the Responses API: the tool calls of every step', async () => {
  const result = await orderAgent(false)
  expect(server?.requests.map((request) => request.path)).toEqual([
    '/v1/responses',
    '/v1/responses',
  ])
  expect((result as { text: string }).text).toBe('Order A1 ships tomorrow.')
  // The last step made no call: only the steps hold the first one.
  expect(result).toHaveToolCalls([{ name: 'lookup_order', args: { id: 'A1' } }], { args: 'exact' })
  expect(toolCalls(result)).toEqual([{ name: 'lookup_order', args: { id: 'A1' }, id: 'call_1' }])
})

test('an AI SDK streamText result: its awaited steps are read; the result itself says to await them', async () => {
  const result = (await orderAgent(true)) as unknown as { steps: PromiseLike<unknown> }
  expect(() => expect(result).toHaveCalledTool('lookup_order')).toThrowError(
    "[rubricate] The value under test is a streaming result (the AI SDK's streamText or a Mastra stream) whose steps are not known yet. Pass its steps once the stream has finished: `expect(await result.steps).toHaveCalledTool(...)`.",
  )
  expect(await result.steps).toHaveCalledTool('lookup_order', { id: 'A1' })
})

test('a Mastra agent result: the tool calls of its steps, else its toolCalls', () => {
  // The shape of Mastra's agent.generate() result, reduced to what matters: stream chunks.
  const chunk = (toolName: string, args: unknown) => ({
    type: 'tool-call',
    runId: 'run-1',
    from: 'AGENT',
    payload: { toolCallId: `id-${toolName}`, toolName, args },
  })
  const mastra = {
    text: 'Done.',
    steps: [{ toolCalls: [chunk('weather', { city: 'Oslo' })] }, { toolCalls: [] }],
    toolCalls: [],
  }
  expect(mastra).toHaveToolCalls([{ name: 'weather', args: { city: 'Oslo' } }])
  expect({ text: 'Done.', toolCalls: [chunk('search', { q: 'x' })] }).toHaveCalledTool('search')
})

test('message lists of every shape: OpenAI chat, Responses items, AI SDK model and UI messages, Mastra messages', () => {
  expect([
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{"n":1}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{}' },
  ]).toHaveToolCalls([{ name: 'a', args: { n: 1 } }])
  expect([
    { role: 'user', content: 'hi' },
    { type: 'function_call', call_id: 'c1', name: 'b', arguments: '{}' },
    { type: 'function_call_output', call_id: 'c1', output: '{}' },
  ]).toHaveToolCalls(['b'])
  expect([
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'c', input: { n: 2 } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'c',
          output: { type: 'json', value: 1 },
        },
      ],
    },
  ]).toHaveToolCalls([{ name: 'c', args: { n: 2 } }])
  expect([
    {
      role: 'assistant',
      parts: [{ type: 'tool-d', toolCallId: 'c1', state: 'output-available', input: {} }],
    },
  ]).toHaveToolCalls(['d'])
  expect([
    {
      id: 'm1',
      role: 'assistant',
      content: {
        format: 2,
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: { toolCallId: 'c1', toolName: 'e', args: { n: 3 }, state: 'result' },
          },
        ],
      },
    },
  ]).toHaveToolCalls([{ name: 'e', args: { n: 3 } }])
  expect([{ role: 'assistant', content: 'No tools needed.' }]).toHaveToolCalls([])
})

test('a failed toHaveToolCalls shows expected and actual calls side by side', () => {
  const response = {
    object: 'response',
    output: [
      { type: 'function_call', call_id: 'c1', name: 'lookup_order', arguments: '{"id":"A1"}' },
      { type: 'function_call', call_id: 'c2', name: 'send_email', arguments: '{"to":"x@y"}' },
      { type: 'function_call', call_id: 'c3', name: 'close_ticket', arguments: '{}' },
    ],
  }
  expect(
    failureOf(() =>
      expect(response).toHaveToolCalls(['lookup_order', { name: 'refund', args: { amount: 10 } }]),
    ),
  ).toBe(`expect(output).toHaveToolCalls(expected)

Expected 2 tool calls, but 3 were made; 1 expected call is unmatched.

  Expected (in order, args: subset) │ Actual (3 calls)
  ✓ 1. lookup_order (any args)      │ 1. lookup_order {"id": "A1"}
  ✗ 2. refund {"amount": 10}        │ 2. send_email {"to": "x@y"}
  +                                 │ 3. close_ticket {}`)
})

test('a failed toHaveCalledTool lists every call next to the one expected', () => {
  const completion = {
    choices: [
      {
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'refund', arguments: '{"amount":5}' } },
          ],
        },
      },
    ],
  }
  expect(failureOf(() => expect(completion).toHaveCalledTool('refund', { amount: 10 }))).toBe(
    `expect(output).toHaveCalledTool(name, args)

Expected a call of the tool "refund" with these arguments, but none of the 1 tool call matches.

  Expected (args: subset)    │ Actual (1 call)
  ✗ 1. refund {"amount": 10} │
  +                          │ 1. refund {"amount": 5}`,
  )
  expect(failureOf(() => expect(completion).not.toHaveCalledTool('refund'))).toContain(
    'Expected no call of the tool "refund", but call 1 is one.',
  )
  expect(
    failureOf(() =>
      expect({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }).toHaveCalledTool(
        'refund',
      ),
    ),
  ).toContain('Expected a call of the tool "refund", but no tool was called.')
})

test('unordered matching finds a pairing a greedy pass would miss', () => {
  const calls = [
    { type: 'function_call', name: 'search', arguments: '{"q":"a","page":2}' },
    { type: 'function_call', name: 'search', arguments: '{"q":"a"}' },
  ]
  // `search` (any args) could take the first call, leaving `{ page: 2 }` nothing to match.
  expect(calls).toHaveToolCalls(['search', { name: 'search', args: { page: 2 } }], {
    ordered: false,
  })
})

test('bad input to the tool-call matchers is a usage error that says what to pass', () => {
  expect(() => expect({ text: 'hi' }).toHaveCalledTool('x')).toThrowError(
    '[rubricate] No tool calls can be read from an object with keys "text", so rubricate cannot tell which tools were called (reading it as "no calls" would let `.not.toHaveCalledTool(...)` pass although a tool was called). Pass an OpenAI Agents SDK RunResult or StreamedRunResult (after `await result.completed`), its `newItems`, `history` or `output`; an OpenAI chat completion or Responses object, or its `output` items; an AI SDK generateText result, its `steps` or `content`; a Mastra agent result; a LangChain AIMessage, a list of LangChain messages (live or serialized, as a LangGraph checkpoint holds them), or a LangGraph state with `messages`; an Anthropic message or a Gemini response; or a list of chat messages (objects with a `role`). For another framework, map its result to a list of chat messages with `tool_calls`.',
  )
  expect(() => expect([]).toHaveCalledTool('')).toThrowError(
    `[rubricate] toHaveCalledTool() expects the tool's name as a non-empty string, but got "".`,
  )
  expect(() => expect([]).toHaveToolCalls('search' as never)).toThrowError(
    '[rubricate] toHaveToolCalls() expects a list of tool calls, each a tool name or { name, args?, agent?, handoffTo? }, but got "search".',
  )
  expect(() => expect([]).toHaveToolCalls([], { order: true } as never)).toThrowError(
    '[rubricate] toHaveToolCalls() options got an unknown option "order". Did you mean "ordered"? Known options: "ordered", "args".',
  )
  expect(() => expect([]).toHaveToolCalls([], { args: 'fuzzy' } as never)).toThrowError(
    '[rubricate] toHaveToolCalls() option "args" is "fuzzy", which is not supported. Use one of "subset", "exact".',
  )
  expect(() => expect(Promise.resolve([])).toHaveCalledTool('x')).toThrowError(/Await it first/)
})

test('each tool-call assertion leaves a record in its test for the report page: name, expected, actual, outcome', async ({
  task,
}) => {
  const messages = [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: lookup.id,
          type: 'function',
          function: { name: lookup.name, arguments: lookup.arguments },
        },
      ],
    },
  ]
  await runInTest(task, undefined, () => {
    expect(messages).toHaveCalledTool('lookup_order', { id: expect.stringMatching(/^A/) })
    expect(messages).not.toHaveToolCalls(['refund'])
  })
  expect((task.meta as { rubricateToolCalls?: unknown }).rubricateToolCalls).toEqual([
    {
      matcher: 'toHaveCalledTool',
      status: 'pass',
      negated: false,
      expected: [{ name: 'lookup_order', args: '{\n  "id": StringMatching /^A/,\n}' }],
      actual: [{ name: 'lookup_order', args: '{\n  "id": "A1",\n  "verbose": true,\n}' }],
    },
    {
      matcher: 'toHaveToolCalls',
      status: 'pass',
      negated: true,
      expected: [{ name: 'refund' }],
      actual: [{ name: 'lookup_order', args: '{\n  "id": "A1",\n  "verbose": true,\n}' }],
    },
  ])
})
