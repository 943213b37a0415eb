// LangGraph, LangChain and the AI SDK as their users test them (issue 39): a graph's collected
// stream in every `streamMode`, its `streamEvents` v2, its `getState()` snapshot, a state paused at
// `interrupt()`, a `structuredResponse`, `withStructuredOutput`'s `{ raw, parsed }` and AI SDK
// `steps`, each made by the real package against a fake Chat Completions server on loopback and
// passed to the readers and matchers with no adapter.
import { createOpenAI } from '@ai-sdk/openai'
import { AIMessage, HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import {
  Command,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  StateGraph,
} from '@langchain/langgraph'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { tool as aiTool, generateText, jsonSchema, stepCountIs } from 'ai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import {
  toHaveBeenInterrupted,
  toHaveCalledTool,
  toHaveStructuredResponse,
  toHaveToolCalls,
  toHaveToolResult,
} from '../../matchers'
import { outputText, toolCalls } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'

expect.extend({
  toHaveBeenInterrupted,
  toHaveCalledTool,
  toHaveStructuredResponse,
  toHaveToolCalls,
  toHaveToolResult,
})

let server: FakeOpenAI
let llm: ChatOpenAI

const FINAL = 'It is sunny in Paris.'
const CALL = { name: 'get_weather', args: { city: 'Paris' } }

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const sent = JSON.stringify(request.body)
      // A structured answer: LangChain's json_schema response format, or the agent's own tool.
      if (sent.includes('"response_format"')) return fakeReply.json({ city: 'Paris', sunny: true })
      if (sent.includes('sunny in Paris') || sent.includes('"sunny"')) return FINAL
      return fakeReply.text('', {
        toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      })
    },
  })
  llm = new ChatOpenAI({
    model: 'gpt-agent',
    apiKey: 'sk-test',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  })
})

afterAll(() => server.close())

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'get_weather',
  description: 'The weather in a city.',
  schema: z.object({ city: z.string() }),
})
const input = () => ({ messages: [new HumanMessage('Weather in Paris?')] })

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

test('collected stream chunks of every streamMode read as the run: its calls, its results and its last reply', async () => {
  const agent = createReactAgent({ llm, tools: [weather] })
  for (const streamMode of ['updates', 'values', 'messages'] as const) {
    const chunks = await collect(await agent.stream(input(), { streamMode }))
    expect(toolCalls(chunks).map(({ name, args }) => ({ name, args }))).toEqual([CALL])
    expect(outputText(chunks)).toBe(FINAL)
    expect(chunks).toHaveToolResult('get_weather', 'sunny in Paris')
    // `messages` chunks carry no interrupts: whether the run paused cannot be told from them.
    if (streamMode === 'messages') {
      expect(() => expect(chunks).not.toHaveBeenInterrupted()).toThrowError(/cannot be read/)
    } else expect(chunks).not.toHaveBeenInterrupted()
  }
})

test('a stream that was not collected is refused, saying how to collect it', async () => {
  const agent = createReactAgent({ llm, tools: [weather] })
  const stream = await agent.stream(input(), { streamMode: 'updates' })
  const refusal = linked(
    '[rubricate] The value under test is an async iterable (IterableReadableStreamWithAbortSignal: a stream), so its chunks are not a value rubricate can read: before it is consumed they are not known, after it they are gone. Collect them, then pass the list: `const chunks = []; for await (const chunk of stream) chunks.push(chunk)` (a LangGraph stream in any `streamMode`, its `streamEvents` v2 events, a LangChain `model.stream()`).',
    'usage',
  )
  expect(() => toolCalls(stream)).toThrowError(refusal)
  expect(() => outputText(stream)).toThrowError(refusal)
  await collect(stream)
})

test('streamEvents v2: the output of the run the events end with; cut short, refused', async () => {
  const agent = createReactAgent({ llm, tools: [weather] })
  const events = await collect(agent.streamEvents(input(), { version: 'v2' }))
  expect(events).toHaveToolCalls([CALL])
  expect(outputText(events)).toBe(FINAL)
  expect(() => outputText(events.slice(0, -1))).toThrowError(/without the end of the run/)
})

function pausingGraph() {
  const model = llm.bindTools([weather])
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('approve', () => {
      const answer = interrupt({ question: 'Look the weather up?' })
      return { messages: [new AIMessage(`approved: ${String(answer)}`)] }
    })
    .addEdge('__start__', 'agent')
    .addEdge('agent', 'approve')
    .addEdge('approve', '__end__')
    .compile({ checkpointer: new MemorySaver() })
}

test('a state paused at interrupt() and its getState() snapshot: interrupted, calls read, refused for the judge', async () => {
  const graph = pausingGraph()
  const config = { configurable: { thread_id: 't1' } }
  const paused = await graph.invoke(input(), config)
  expect(paused).toHaveBeenInterrupted()
  expect(paused).toHaveCalledTool('get_weather', { city: 'Paris' })
  expect(() => outputText(paused)).toThrowError(/paused at `interrupt\(\)`/)
  const snapshot = await graph.getState(config)
  expect(snapshot).toHaveBeenInterrupted()
  expect(snapshot).toHaveCalledTool('get_weather')
  expect(() => outputText(snapshot)).toThrowError(/paused at `interrupt\(\)`/)
  const resumed = await graph.invoke(new Command({ resume: 'yes' }), config)
  expect(resumed).not.toHaveBeenInterrupted()
  expect(outputText(resumed)).toBe('approved: yes')
  const done = await graph.getState(config)
  expect(outputText(done)).toBe('approved: yes')
  expect(done).not.toHaveBeenInterrupted()
})

test('a structuredResponse is what the judge sees, as sorted JSON, and toHaveStructuredResponse checks it', async () => {
  const agent = createReactAgent({
    llm,
    tools: [weather],
    responseFormat: z.object({ city: z.string(), sunny: z.boolean() }),
  })
  const state = await agent.invoke(input())
  expect(outputText(state)).toBe('{\n  "city": "Paris",\n  "sunny": true\n}')
  expect(state).toHaveStructuredResponse(z.object({ city: z.literal('Paris') }))
  expect(state).toHaveStructuredResponse({ city: 'Paris', sunny: true })
  expect(state).not.toHaveStructuredResponse(z.object({ city: z.literal('Rome') }))
  expect(() => expect(state).toHaveStructuredResponse({ city: 'Rome' })).toThrowError(
    /Expected the structured response to equal the expected value, but it differs/,
  )
})

test("withStructuredOutput includeRaw: the judge sees parsed, the calls are the raw message's", async () => {
  const pair = await llm
    .withStructuredOutput(z.object({ city: z.string(), sunny: z.boolean() }), { includeRaw: true })
    .invoke('Weather in Paris, as JSON?')
  expect(outputText(pair)).toBe('{\n  "city": "Paris",\n  "sunny": true\n}')
  expect(toolCalls(pair)).toEqual([])
  expect(pair).toHaveStructuredResponse({ city: 'Paris', sunny: true })
})

test("AI SDK steps: the judge sees the last step's text, the calls and results of every step are read", async () => {
  const result = await generateText({
    model: createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent'),
    prompt: 'Weather in Paris?',
    stopWhen: stepCountIs(3),
    tools: {
      get_weather: aiTool({
        description: 'The weather in a city.',
        inputSchema: jsonSchema<{ city: string }>({
          type: 'object',
          properties: { city: { type: 'string' } },
        }),
        execute: async ({ city }) => `sunny in ${city}`,
      }),
    },
  })
  expect(result.steps).toHaveLength(2)
  expect(outputText(result.steps)).toBe(FINAL)
  expect(result.steps).toHaveCalledTool('get_weather', { city: 'Paris' })
  expect(result.steps).toHaveToolResult('get_weather', 'sunny in Paris')
  expect(() => expect(result).toHaveBeenInterrupted()).toThrowError(/cannot be read from/)
})
