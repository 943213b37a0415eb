// A describeEval task may return a LangGraph state or a LangChain AIMessage as it is (issue 29):
// the rubric's judge sees the last reply, a trajectory scorer reads the tool calls.
import { HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { afterAll, beforeAll, expect } from 'vitest'
import { z } from 'zod'
import { describeEval } from '../../evals'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { configureRubricate, resetRubricateConfig, toolCalls } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'

expect.extend({ toSatisfyRubric, toPassScorer })

let server: FakeOpenAI
const judged: string[] = []

const lookup = tool(async ({ id }) => `ticket ${id}: open`, {
  name: 'lookup_ticket',
  description: 'Look a ticket up by its id.',
  schema: z.object({ id: z.string() }),
})

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.body.model === 'gpt-judge') {
        judged.push(request.body.messages.at(-1).content)
        return keywordJudge(request)
      }
      if (JSON.stringify(request.body.messages).includes('ticket T1: open')) {
        return 'Ticket T1 is open.'
      }
      return fakeReply.text('', {
        toolCalls: [{ id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' }],
      })
    },
  })
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
  // The judge was shown the last reply, once per row, never the messages' LangChain fields.
  expect(judged).toHaveLength(1)
  expect(judged[0]).toContain('Ticket T1 is open.')
  expect(judged[0]).not.toContain('lc_kwargs')
})

describeEval('a LangGraph desk', {
  data: [{ input: 'What about ticket T1?' }],
  task: (row) => {
    const llm = new ChatOpenAI({
      model: 'gpt-agent',
      apiKey: 'sk-test',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    })
    return createReactAgent({ llm, tools: [lookup] }).invoke({
      messages: [new HumanMessage(String(row.input))],
    })
  },
  criteria: '- Mentions Ticket T1 is open',
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
