// A Mastra scorer's judge is an agent of its own (@mastra/core 1.71): its model calls go through
// the agents' path, where they used to count as the agent's calls, with no judge limit or cost.
// They are the scorer's judge calls: in the assertion's record (model, source, tokens, entry), under
// the judge's live limits, and not in the agents' count.
import { createOpenAI } from '@ai-sdk/openai'
import { createScorer as createMastraScorer } from '@mastra/core/evals'
import { afterAll, afterEach, expect, test } from 'vitest'
import { z } from 'zod'
import { toPassScorer } from '../../matchers'
import { configureRubricate, runUntilComplete } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import type { RubricateRecord } from '../../src/records/records'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { useCassetteFolder } from '../cassettes/support'

expect.extend({ toPassScorer })

const session = startCassetteServer()
// A cassette folder of its own, emptied after each test.
useCassetteFolder()
let fake: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await fake?.close()
  fake = undefined
})
afterAll(() => stopCassetteServer())

function politeness(baseURL: string) {
  const model = createOpenAI({ baseURL, apiKey: 'sk-test' }).chat('gpt-4.1-mini')
  return createMastraScorer({
    id: 'politeness',
    description: 'The reply is polite',
    judge: { model, instructions: 'You judge whether replies are polite.' },
  })
    .analyze({
      description: 'Is the reply polite?',
      outputSchema: z.object({ polite: z.boolean() }),
      createPrompt: ({ run }) => `Is this reply polite? ${String(run.output)}`,
    })
    .generateScore(({ results }) => (results.analyzeStepResult?.polite ? 1 : 0))
}

const reply = fakeReply.text('{"polite":true}', {
  usage: { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 },
})

test("a Mastra scorer's model calls are its judge calls: recorded, replayed, with tokens, not the agent's", async (ctx) => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  fake = await startFakeOpenAI({ reply })
  const scorer = politeness(fake.baseURL)
  await expect('Thank you for waiting, here is your refund.').toPassScorer(scorer)
  configureRubricate({ cassettes: { mode: 'replay' } })
  await expect('Thank you for waiting, here is your refund.').toPassScorer(scorer)
  const records = ctx.task.meta.rubricate as RubricateRecord[]
  expect(records.map((r) => r.judgeCalls.map((c) => [c.source, c.model, c.usage]))).toEqual([
    [['recorded', 'gpt-4.1-mini', { inputTokens: 120, outputTokens: 8, totalTokens: 128 }]],
    [['replayed', 'gpt-4.1-mini', { inputTokens: 120, outputTokens: 8, totalTokens: 128 }]],
  ])
  expect(records[1]?.judgeCalls[0]?.cassetteFile).toMatch(/\.json$/)
  expect(fake.requests).toHaveLength(1)
  // Not the agent's: the agents' count of the file stays empty.
  await session.flush()
  const { agentCalls } = session.takeUsage()
  expect(agentCalls).toEqual({ replayed: 0, recorded: 0, live: 0, failed: 0 })
})

test("the judge's live limits apply to a Mastra scorer's model calls", async () => {
  configureRubricate({ cassettes: { mode: 'auto' }, maxLiveCalls: 1 })
  fake = await startFakeOpenAI({ reply })
  const scorer = politeness(fake.baseURL)
  await expect('Thank you for waiting.').toPassScorer(scorer)
  // The second live call is past the limit: refused before it is sent.
  await expect(expect('Here is your refund.').toPassScorer(scorer)).rejects.toThrow(/maxLiveCalls/)
  expect(fake.requests).toHaveLength(1)
  expect(session.takeErrors().map((error) => (error as { code?: string }).code)).toEqual([
    'RUBRICATE_LIMIT',
  ])
})

test("in the loop too, a Mastra scorer's model calls are its judge calls", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  fake = await startFakeOpenAI({ reply })
  const result = await runUntilComplete(async () => 'Thank you, here is your refund.', {
    scorers: [politeness(fake.baseURL)],
  })
  expect(result.complete).toBe(true)
  const calls = result.iterations[0]?.check.scorers[0]?.result?.judgeCalls ?? []
  expect(calls.map((call) => [call.source, call.usage?.totalTokens])).toEqual([['recorded', 128]])
  await session.flush()
  expect(session.takeUsage().agentCalls).toEqual({ replayed: 0, recorded: 0, live: 0, failed: 0 })
})
