// Mastra agents and scorers as they are (@mastra/core 1.71): an agent.generate() result handed to
// toPassScorer with a `type: 'agent'` scorer gets the messages Mastra would give the scorer.
import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '@mastra/core/agent'
import { createScorer as createMastraScorer } from '@mastra/core/evals'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { createScorer } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'

expect.extend({ toSatisfyRubric, toPassScorer })

let server: FakeOpenAI
let agent: Agent

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: 'Paris is the capital of France.' })
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  agent = new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model })
})
afterAll(() => server.close())

const textOf = (message: any): string =>
  typeof message?.content === 'string' ? message.content : (message?.content?.content ?? '')

test("a Mastra scorer of type 'agent' scores agent.generate()'s result as Mastra would hand it over", async () => {
  const seen: any[] = []
  const mentionsParis = createMastraScorer({
    id: 'mentions-paris',
    description: 'The answer names Paris',
    type: 'agent',
  }).generateScore(({ run }) => {
    seen.push(run)
    const question = textOf(run.input?.inputMessages[0])
    const answer = textOf(run.output[0])
    return question.includes('France') && answer.includes('Paris') ? 1 : 0
  })
  await expect(await agent.generate('What is the capital of France?')).toPassScorer(mentionsParis)
  expect(seen[0].input.inputMessages.map((m: any) => m.role)).toEqual(['user'])
  expect(seen[0].output.map((m: any) => m.role)).toEqual(['assistant'])
  // With returnScorerData, Mastra's own scoringData is used as it is (system messages included).
  await expect(
    await agent.generate('What is the capital of France?', { returnScorerData: true }),
  ).toPassScorer(mentionsParis)
  expect(seen[1].input.systemMessages).toEqual([{ role: 'system', content: 'Answer briefly.' }])
})

test("a rubricate scorer of type 'agent' gets the same messages; other scorers get the result's text", async () => {
  const agentScorer = createScorer({
    id: 'agent-len',
    description: 'len',
    type: 'agent',
  }).generateScore(({ run }) => (textOf(run.output[0]).length > 10 ? 1 : 0))
  await expect(await agent.generate('Capital of France?')).toPassScorer(agentScorer)
  const plain = createScorer({ id: 'plain', description: 'plain' }).generateScore(({ run }) =>
    typeof run.output === 'object' && run.output.text.includes('Paris') ? 1 : 0,
  )
  await expect(await agent.generate('Capital of France?')).toPassScorer(plain)
})

test("with memory, a remembered message is in rememberedMessages only, as in Mastra's scoringData", async () => {
  const { MockMemory } = await import('@mastra/core/memory')
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  const remembering = new Agent({
    id: 'geo-memory',
    name: 'geo-memory',
    instructions: 'Answer briefly.',
    model,
    memory: new MockMemory(),
  })
  const memory = { thread: 'thread-1', resource: 'user-1' }
  await remembering.generate('Remember: I live in Lyon.', { memory })
  const seen: any[] = []
  const scorer = createScorer({ id: 'sees', description: 'sees', type: 'agent' }).generateScore(
    ({ run }) => {
      seen.push(run.input)
      return 1
    },
  )
  const question = 'Capital of France?'
  const result = await remembering.generate(question, { memory, returnScorerData: true })
  const withoutScoringData = { ...result, scoringData: undefined }
  await expect(withoutScoringData).toPassScorer(scorer)
  const texts = (list: any[]) =>
    list.map((message) => textOf(message) || message.content?.parts?.[0]?.text)
  expect(texts(seen[0].inputMessages)).toEqual([question])
  expect(texts(seen[0].rememberedMessages)).toEqual(
    texts(result.scoringData?.input.rememberedMessages ?? []),
  )
  expect(seen[0].rememberedMessages.length).toBeGreaterThan(0)
})
