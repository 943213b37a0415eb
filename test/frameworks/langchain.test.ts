// LangChain.js and LangGraph results as they are (issue 29): the real `@langchain/openai` model and
// a LangGraph ReAct agent against a fake Chat Completions server on loopback; the matchers and
// helpers read an AIMessage, a message list and a graph state with no adapter.
import { HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { toHaveCalledTool, toHaveToolCalls, toSatisfyRubric } from '../../matchers'
import {
  configureRubricate,
  createRubricScorer,
  outputText,
  resetRubricateConfig,
  runUntilComplete,
  taskText,
  toolCalls,
  trajectoryText,
} from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'

expect.extend({ toHaveCalledTool, toHaveToolCalls, toSatisfyRubric })

let server: FakeOpenAI
let model: ChatOpenAI

const lookup = tool(async ({ id }) => `ticket ${id}: open`, {
  name: 'lookup_ticket',
  description: 'Look a ticket up by its id.',
  schema: z.object({ id: z.string() }),
})

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.body.model === 'gpt-judge') return keywordJudge(request)
      const sent = JSON.stringify(request.body.messages)
      if (sent.includes('ticket T1: open')) return 'Ticket T1 is open.'
      return fakeReply.text('', {
        toolCalls: [{ id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' }],
      })
    },
  })
  model = new ChatOpenAI({
    model: 'gpt-agent',
    apiKey: 'sk-test',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  })
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

const LOOKUP = { name: 'lookup_ticket', args: { id: 'T1' }, id: 'call_lookup' }

test("an AIMessage's tool_calls are read as they are", async () => {
  const message = await model.bindTools([lookup]).invoke('What about ticket T1?')
  expect(toolCalls(message)).toEqual([LOOKUP])
  expect(message).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(message).not.toHaveCalledTool('refund')
})

test("a LangGraph agent's state: its calls, its last reply for the judge, its task", async () => {
  const agent = createReactAgent({ llm: model, tools: [lookup] })
  const state = await agent.invoke({
    messages: [new SystemMessage('Be brief.'), new HumanMessage('What about ticket T1?')],
  })
  expect(toolCalls(state)).toEqual([LOOKUP])
  expect(toolCalls(state.messages)).toEqual([LOOKUP])
  expect(state).toHaveToolCalls([{ name: 'lookup_ticket', args: { id: 'T1' } }])
  expect(outputText(state)).toBe('Ticket T1 is open.')
  expect(outputText(state.messages)).toBe('Ticket T1 is open.')
  expect(taskText(state.messages)).toBe('What about ticket T1?')
  server.clearRequests()
  await expect(state).toSatisfyRubric('- Mentions Ticket T1 is open', { input: state.messages })
  const prompt: string = server.requests[0]?.body.messages.at(-1).content
  expect(prompt).toContain('What about ticket T1?')
  expect(prompt).not.toContain('lc_kwargs')
})

test('a LangGraph state as a checkpoint stores it (serialized messages) reads as the live state', async () => {
  const agent = createReactAgent({ llm: model, tools: [lookup] })
  const state = await agent.invoke({ messages: [new HumanMessage('What about ticket T1?')] })
  const stored = JSON.parse(JSON.stringify(state))
  expect(stored.messages[1]).toMatchObject({
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', 'AIMessage'],
  })
  expect(toolCalls(stored)).toEqual([LOOKUP])
  expect(toolCalls(stored.messages[1])).toEqual([LOOKUP])
  expect(outputText(stored)).toBe('Ticket T1 is open.')
  expect(outputText(stored.messages.at(-1))).toBe('Ticket T1 is open.')
  expect(taskText(stored.messages)).toBe('What about ticket T1?')
  expect(trajectoryText(stored)).toBe(
    [
      '{"call":1,"tool":"lookup_ticket","arguments":{"id":"T1"},"result":"ticket T1: open"}',
      '{"finalAnswer":"Ticket T1 is open."}',
    ].join('\n'),
  )
  expect(stored).toHaveCalledTool('lookup_ticket', { id: 'T1' })
})

test('LangChain stored messages (a chat message history) read as the messages they store', async () => {
  const { mapChatMessagesToStoredMessages } = await import('@langchain/core/messages')
  const state = await createReactAgent({ llm: model, tools: [lookup] }).invoke({
    messages: [new HumanMessage('What about ticket T1?')],
  })
  const stored = mapChatMessagesToStoredMessages(state.messages)
  expect(stored[1]).toMatchObject({ type: 'ai', data: { content: '' } })
  expect(toolCalls(stored)).toEqual([LOOKUP])
  expect(outputText(stored)).toBe('Ticket T1 is open.')
  expect(taskText(stored)).toBe('What about ticket T1?')
})

test('runUntilComplete takes a LangGraph agent that returns its state, and judges its last reply', async () => {
  const agent = createReactAgent({ llm: model, tools: [lookup] })
  server.clearRequests()
  const loop = await runUntilComplete(
    ({ input }) => agent.invoke({ messages: [new HumanMessage(input)] }),
    {
      input: 'What about ticket T1?',
      scorers: [createRubricScorer({ criteria: '- Mentions Ticket T1 is open' })],
      maxSteps: 2,
    },
  )
  expect(loop.complete).toBe(true)
  expect(loop.iterations).toHaveLength(1)
  expect(toolCalls(loop.output)).toEqual([LOOKUP])
  const judged = server.requests.filter((request) => request.body.model === 'gpt-judge')
  expect(judged.at(-1)?.body.messages.at(-1).content).not.toContain('lc_kwargs')
})
