// A describeEval task may return an OpenAI Agents SDK RunResult as it is (issue 29): the rubric's
// judge sees its final output, a trajectory scorer reads its tool calls.
import { run } from '@openai/agents'
import { afterAll, beforeAll, expect } from 'vitest'
import { describeEval } from '../../evals'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { configureRubricate, resetRubricateConfig, toolCalls } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'
import { deskModel, supportDesk } from './agents-sdk-agent'

expect.extend({ toSatisfyRubric, toPassScorer })

let server: FakeOpenAI
const judged: string[] = []

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.path.endsWith('/responses')) return deskModel(request)
      judged.push(request.body.messages.at(-1).content)
      return keywordJudge(request)
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
  // The judge was shown the final reply, once per row, never the run's items.
  expect(judged).toHaveLength(1)
  expect(judged[0]).toContain('Ticket T1 is open; refunds take 5 days.')
  expect(judged[0]).not.toContain('rawItem')
})

describeEval('an Agents SDK desk', {
  data: [{ input: 'What about ticket T1?' }],
  task: (row) => run(supportDesk(server.baseURL).triage, String(row.input)),
  criteria: '- Mentions refunds take 5 days',
  scorers: [
    function handsOffToBilling({ output }) {
      return toolCalls(output).some((call) => call.handoffTo === 'Billing') ? 1 : 0
    },
  ],
})
