// A rubricate scorer where a Mastra agent (@mastra/core 1.71) expects a scorer of its own, in
// `isTaskComplete`: Mastra's scorer type is its class, so toMastraScorer wraps the rubricate scorer
// in Mastra's createScorer. Mastra's agent then loops on the rubric's verdicts.
import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '@mastra/core/agent'
import { createScorer as createMastraScorer } from '@mastra/core/evals'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  configureRubricate,
  createRubricScorer,
  resetRubricateConfig,
  toMastraScorer,
} from '../../src'
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from '../../src/testing'
import { judgeBy, userMessage } from '../support/rubric-judge'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI()
})
afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

const isJudge = (request: FakeRequest) =>
  request.body?.response_format?.json_schema?.name === 'rubric_verdicts'

test("a rubricate rubric scorer, through toMastraScorer, drives a Mastra agent's isTaskComplete", async () => {
  let agentCalls = 0
  server.setReply((request) => {
    if (isJudge(request)) {
      return judgeBy(() => userMessage(request).includes('Recommendations'))(request)
    }
    agentCalls++
    return agentCalls === 1 ? 'Analysis only.' : 'Analysis.\nRecommendations: pilot it.'
  })
  configureRubricate({
    judge: { model: 'gpt-4.1-mini', baseURL: server.baseURL, apiKey: 'sk-test' },
    cassettes: { mode: 'off' },
  })
  const rubric = createRubricScorer({ criteria: '- Gives concrete recommendations' })
  const forMastra = toMastraScorer(rubric, createMastraScorer)
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  const agent = new Agent({ id: 'writer', name: 'writer', instructions: 'Write.', model })
  const stream = await agent.stream('Write a report on AI tutors.', {
    maxSteps: 3,
    isTaskComplete: { scorers: [forMastra] },
  })
  const text = await stream.text
  expect(text).toContain('Recommendations')
  expect(agentCalls).toBe(2)
})
