// Group 19 (issue 35): an output reader reads an output completely or refuses it, never a part.
// Each case is an accidental pass found by porting the frameworks' own tests: a value the real
// SDK made against a fake server on loopback, on which `.not.toHaveCalledTool` passed although the
// call was made, or the judge was shown a reply the run had not given.
import { HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { interrupt, MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph'
import { ChatOpenAI } from '@langchain/openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { toHaveCalledTool } from '../../matchers'
import { outputText, toolCalls } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { splitStream } from '../output/split-stream'
import { linked } from '../support/error-page'

expect.extend({ toHaveCalledTool })

const CITIES = ['Paris, France', 'Tokyo, Japan', 'San Francisco, CA']
let server: FakeOpenAI
let model: ReturnType<ChatOpenAI['bindTools']>

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const sent = JSON.stringify(request.body)
      if (sent.includes('malformed')) {
        return fakeReply.text('', {
          toolCalls: [
            { id: 'call_1', name: 'get_current_weather', arguments: '{"location": "Par' },
          ],
        })
      }
      const calls = CITIES.map((location, index) => ({
        id: `call_${index + 1}`,
        name: 'get_current_weather',
        arguments: JSON.stringify({ location }),
      }))
      return request.body.stream === true
        ? splitStream(calls, 'Let me check the weather.')
        : fakeReply.text('Let me check the weather.', { toolCalls: calls })
    },
  })
  const weather = tool(async () => 'sunny', {
    name: 'get_current_weather',
    description: 'The weather in a place.',
    schema: z.object({ location: z.string() }),
  })
  model = new ChatOpenAI({
    model: 'gpt-agent',
    apiKey: 'sk-test',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  }).bindTools([weather])
})

afterAll(() => server.close())

describe('19. Read completely or refuse', () => {
  test("a collected model.stream() of LangChain chunks is read joined: three calls with their arguments, and the reply's text", async () => {
    const chunks: unknown[] = []
    for await (const chunk of await model.stream('What is the weather?')) chunks.push(chunk)
    expect(toolCalls(chunks).map((call) => call.args)).toEqual(
      CITIES.map((location) => ({ location })),
    )
    expect(() =>
      expect(chunks).not.toHaveCalledTool('get_current_weather', { location: 'Paris, France' }),
    ).toThrowError(/Expected no call of the tool "get_current_weather" with these arguments/)
    expect(outputText(chunks)).toBe('Let me check the weather.')
  })

  test('a LangChain message whose call has malformed JSON arguments holds that call, with its raw arguments', async () => {
    const message = await model.invoke('malformed')
    expect(toolCalls(message)).toEqual([
      { name: 'get_current_weather', args: '{"location": "Par', id: 'call_1' },
    ])
    expect(() => expect(message).not.toHaveCalledTool('get_current_weather')).toThrowError(
      /Expected no call of the tool "get_current_weather"/,
    )
    expect(() =>
      expect(message).not.toHaveCalledTool('get_current_weather', { location: 'Paris' }),
    ).toThrowError(
      linked(
        '[rubricate] A call of the tool "get_current_weather" has arguments that are not JSON ("{\\"location\\": \\"Par", the raw text the model sent), so rubricate cannot tell whether they hold the expected arguments (reading them as different would let `.not` pass although the call was made). Check the call by name alone (`toHaveCalledTool("get_current_weather")`), or its raw arguments as a string (`toHaveCalledTool("get_current_weather", expect.stringContaining(...))`).',
        'usage',
      ),
    )
  })

  test('a LangGraph state paused at interrupt() is refused for the judge, its calls so far still read', async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('approve', () => {
        interrupt({ question: 'Check the weather?' })
        return {}
      })
      .addEdge('__start__', 'agent')
      .addEdge('agent', 'approve')
      .addEdge('approve', '__end__')
      .compile({ checkpointer: new MemorySaver() })
    const state = await graph.invoke(
      { messages: [new HumanMessage('What is the weather?')] },
      { configurable: { thread_id: 'paused' } },
    )
    expect(toolCalls(state)).toHaveLength(3)
    expect(() => outputText(state)).toThrowError(
      linked(
        '[rubricate] The value under test is a LangGraph state paused at `interrupt()` (its `__interrupt__` holds 1 interrupt), so its run has no final reply to judge. Resume it (`graph.invoke(new Command({ resume: ... }), config)`) and pass the state it returns; the pause itself can be checked with toHaveBeenInterrupted(), its tool calls so far with toHaveCalledTool().',
        'usage',
      ),
    )
  })
})
