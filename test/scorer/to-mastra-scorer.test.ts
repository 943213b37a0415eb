// toMastraScorer against @mastra/core 1.71 itself: the scorer built is Mastra's own class, runs
// rubricate's scorer on what Mastra hands it, and keeps a not-scorable result not scorable.
import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '@mastra/core/agent'
import { createScorer as createMastraScorer, MastraScorer } from '@mastra/core/evals'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createScorer, notScorable, outputText, toMastraScorer } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'

let server: FakeOpenAI
let agent: Agent
beforeAll(async () => {
  server = await startFakeOpenAI({ reply: 'Paris is the capital of France.' })
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  agent = new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model })
})
afterAll(() => server.close())

test("a rubricate agent scorer runs as a Mastra scorer on the agent's scoringData", async () => {
  const seen: unknown[] = []
  const namesParis = createScorer({ id: 'names-paris', description: 'Names Paris', type: 'agent' })
    .generateScore(({ run }) => {
      seen.push(run.output)
      return outputText(run.output.at(-1)).includes('Paris') ? 1 : 0
    })
    .generateReason(({ score }) => (score === 1 ? 'Paris is named.' : 'No Paris.'))
  const forMastra = toMastraScorer(namesParis, createMastraScorer)
  expect(forMastra).toBeInstanceOf(MastraScorer)
  expect([forMastra.id, forMastra.name, forMastra.description]).toEqual([
    'names-paris',
    'names-paris',
    'Names Paris',
  ])
  const result = await agent.generate('Capital of France?', { returnScorerData: true })
  const scoringData = result.scoringData
  if (!scoringData) throw new Error('Mastra returned no scoringData')
  const scored = await forMastra.run({ input: scoringData.input, output: scoringData.output })
  expect([scored.score, scored.reason]).toEqual([1, 'Paris is named.'])
  // The messages reached rubricate's steps as Mastra stores them: content { format: 2, parts }.
  expect((seen[0] as any[])[0].content.format).toBe(2)
})

test('a not-scorable rubricate result is not scorable in Mastra, not a score of 0', async () => {
  const empty = createScorer({ id: 'needs-text', description: 'Needs text' })
    .preprocess(({ run }) => (run.output ? run.output : notScorable('The agent said nothing.')))
    .generateScore(() => 1)
  const scored = await toMastraScorer(empty, createMastraScorer).run({ output: '' })
  expect(scored.score).toBeUndefined()
  expect(scored.notScorable).toEqual({ step: 'generateScore', reason: 'The agent said nothing.' })
})

test('toMastraScorer names what it expects when given something else', () => {
  expect(() => toMastraScorer({} as never, createMastraScorer)).toThrow(
    "[rubricate] toMastraScorer() expects a rubricate scorer (an object with run()), such as createScorer(...).generateScore(...) or createRubricScorer(...), but got {}. Pass the scorer first and Mastra's createScorer second.",
  )
  const scorer = createScorer({ id: 's', description: 's' }).generateScore(() => 1)
  expect(() => toMastraScorer(scorer, undefined as never)).toThrow(
    "[rubricate] toMastraScorer() expects Mastra's createScorer as its second argument, but got undefined. rubricate does not depend on Mastra, so the Mastra scorer is built with Mastra's own factory: import { createScorer } from '@mastra/core/evals' and pass it.",
  )
})
