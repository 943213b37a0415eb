// The tool-call scorer's partial credit (order, extras, argument matching) over the result shapes
// toolCalls() reads, and the trajectory rubric's transcript as its judge sees it.
import { afterEach, expect, test } from 'vitest'
import { toPassScorer } from '../../matchers'
import { createToolCallScorer, createTrajectoryRubric, trajectoryText } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { judgeBy, userMessage } from '../support/rubric-judge'

expect.extend({ toPassScorer })

let server: FakeOpenAI | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

// The same three calls, as an OpenAI chat completion, an AI SDK result and a Responses object.
const chatCompletion = {
  choices: [
    {
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"A1"}' } },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'lookup_order', arguments: '{"id":"A1","verbose":true}' },
          },
          { id: 'c3', type: 'function', function: { name: 'refund', arguments: '{"id":"A1"}' } },
        ],
      },
    },
  ],
}
const aiSdkResult = {
  text: 'Refunded.',
  steps: [
    {
      toolCalls: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'A1' } },
        {
          type: 'tool-call',
          toolCallId: 'c2',
          toolName: 'lookup_order',
          input: { id: 'A1', verbose: true },
        },
      ],
      toolResults: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: ['A1'] },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'lookup_order',
          output: { status: 'shipped' },
        },
      ],
    },
    {
      toolCalls: [{ type: 'tool-call', toolCallId: 'c3', toolName: 'refund', input: { id: 'A1' } }],
      toolResults: [],
    },
  ],
}
const responses = {
  object: 'response',
  output: [
    { type: 'function_call', call_id: 'c1', name: 'search', arguments: '{"q":"A1"}' },
    {
      type: 'function_call',
      call_id: 'c2',
      name: 'lookup_order',
      arguments: '{"id":"A1","verbose":true}',
    },
    { type: 'function_call', call_id: 'c3', name: 'refund', arguments: '{"id":"A1"}' },
  ],
}

const score = async (config: Parameters<typeof createToolCallScorer>[0], output: unknown) =>
  (await createToolCallScorer(config).run({ output })).score

test('every shape gives the same partial credit: the share of expected calls made', async () => {
  const config = {
    expected: [
      { name: 'lookup_order', args: { id: 'A1' } },
      { name: 'refund', args: { id: 'B2' } },
    ],
  }
  for (const shape of [chatCompletion, aiSdkResult, responses]) {
    expect(await score(config, shape)).toBe(0.5)
  }
})

test('strict order credits the calls made in the expected order; any order credits them all', async () => {
  const expected = [{ name: 'refund' }, { name: 'lookup_order' }]
  expect(await score({ expected, order: 'any' }, chatCompletion)).toBe(1)
  // refund comes after lookup_order: in order, only one of the two is credited.
  expect(await score({ expected, order: 'strict' }, chatCompletion)).toBe(0.5)
})

test('with extras not allowed, each call beyond the expected ones counts against the score', async () => {
  const expected = [{ name: 'lookup_order' }, { name: 'refund' }]
  expect(await score({ expected }, chatCompletion)).toBe(1)
  // 2 matched of 2 expected plus 1 extra (search): 2 / 3.
  expect(await score({ expected, allowExtras: false }, chatCompletion)).toBeCloseTo(2 / 3, 10)
  const result = await createToolCallScorer({ expected, allowExtras: false }).run({
    output: chatCompletion,
  })
  expect(result.reason).toBe(
    '2 of 2 expected calls matched (any order); matched lookup_order, refund; extra (counted against) search {"q":"A1"}: score 0.667',
  )
})

test('arguments match as a subset by default, exactly on request, or by a custom matcher', async () => {
  const expected = [{ name: 'lookup_order', args: { id: 'A1' } }]
  expect(await score({ expected }, chatCompletion)).toBe(1)
  expect(await score({ expected, args: 'exact' }, chatCompletion)).toBe(0)
  const caseless = (want: unknown, got: unknown) =>
    String((want as { id: string }).id).toLowerCase() ===
    String((got as { id: string }).id).toLowerCase()
  expect(
    await score({ expected: [{ name: 'refund', args: { id: 'a1' } }], args: caseless }, responses),
  ).toBe(1)
})

test('toPassScorer gates the partial credit on its threshold and records the reason', async () => {
  const scorer = createToolCallScorer({
    expected: [{ name: 'lookup_order' }, { name: 'cancel' }],
    id: 'order-path',
  })
  await expect(aiSdkResult).toPassScorer(scorer, { threshold: 0.5 })
  await expect(aiSdkResult).not.toPassScorer(scorer, { threshold: 0.6 })
})

test('bad options are usage errors that say what to write', () => {
  expect(() => createToolCallScorer({ expected: 'refund' as never })).toThrow(
    '[rubricate] createToolCallScorer() option "expected" must be a list of calls such as [{ name: \'lookup_order\', args: { id: \'A1\' } }], but holds "refund".',
  )
  expect(() => createToolCallScorer({ expected: [], order: 'loose' as never })).toThrow(
    'createToolCallScorer() option "order"',
  )
})

test('the trajectory transcript lists each call with its result, then the final answer', () => {
  expect(trajectoryText(aiSdkResult)).toBe(
    [
      '{"call":1,"tool":"search","arguments":{"q":"A1"},"result":["A1"]}',
      '{"call":2,"tool":"lookup_order","arguments":{"id":"A1","verbose":true},"result":{"status":"shipped"}}',
      '{"call":3,"tool":"refund","arguments":{"id":"A1"},"resultRecorded":false}',
      '{"finalAnswer":"Refunded."}',
    ].join('\n'),
  )
})

test('the trajectory rubric’s judge sees the transcript as the output to grade', async () => {
  server = await startFakeOpenAI({
    reply: judgeBy((_text, request) =>
      userMessage(request).includes('{"call":2,"tool":"lookup_order"'),
    ),
  })
  const scorer = createTrajectoryRubric({
    criteria: '- Looks the order up before refunding it',
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' },
  })
  const result = await scorer.run({ input: 'Refund A1', output: aiSdkResult })
  expect(result.passed).toBe(true)
  expect(userMessage(server.requests[0])).toContain(
    '{"call":1,"tool":"search","arguments":{"q":"A1"},"result":["A1"]}\n{"call":2,"tool":"lookup_order","arguments":{"id":"A1","verbose":true}',
  )
})
