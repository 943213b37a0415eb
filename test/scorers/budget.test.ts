import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { configureRubricate, modelCalls } from '../../src'
import { measureBudget } from '../../src/budget/budget'
import { createCassetteFetch } from '../../src/cassettes'
import { runAsTest } from '../../src/runtime/call-context'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { useCassetteFolder } from '../cassettes/support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

// The agent: three chat calls through rubricate's fetch, inside a test of its own.
async function agentRun(name: string) {
  const client = new OpenAI({
    baseURL: server?.baseURL,
    apiKey: 'k',
    fetch: createCassetteFetch(),
    maxRetries: 0,
  })
  const test = { identity: { file: '/t/budget.test.ts', name }, task: {} }
  return runAsTest(test, undefined, async () => {
    for (const question of ['one', 'two', 'three']) {
      await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: question }],
      })
    }
    return modelCalls({ caller: 'agent' })
  })
}

test('the test log holds each agent call with its tokens and latency, recorded then replayed alike', async () => {
  server = await startFakeOpenAI({ reply: 'fine', latencyMs: 30 })
  const recorded = await agentRun('three calls')
  expect(recorded).toHaveLength(3)
  expect(recorded[0]).toMatchObject({
    caller: 'agent',
    endpoint: 'chat/completions',
    model: 'gpt-4.1-mini',
    source: 'recorded',
  })
  expect(recorded[0]?.inputTokens).toBeGreaterThan(0)
  expect(recorded[0]?.latencyMs).toBeGreaterThanOrEqual(30)
  configureRubricate({ cassettes: { mode: 'replay', dir: folder.dir } })
  await server.close()
  const replayed = await agentRun('three calls')
  expect(replayed.map((call) => call.source)).toEqual(['replayed', 'replayed', 'replayed'])
  // The recorded figures, not the replay's own near-zero time.
  expect(replayed.map((call) => call.latencyMs)).toEqual(recorded.map((call) => call.latencyMs))
  expect(replayed.map((call) => call.inputTokens)).toEqual(recorded.map((call) => call.inputTokens))
})

test('a budget names the call at which each limit was first gone over', async () => {
  const call = (inputTokens: number, latencyMs: number) => ({
    caller: 'agent' as const,
    endpoint: 'chat/completions',
    model: 'gpt-4.1-mini',
    source: 'replayed' as const,
    inputTokens,
    outputTokens: 10,
    latencyMs,
  })
  const { totals, overruns } = measureBudget(
    [call(100, 50), call(100, 900), call(100, 50), call(100, 50)],
    { maxCalls: 3, maxInputTokens: 150, maxLatencyMs: 500, maxCost: 1 },
    {},
  )
  expect(totals).toMatchObject({ calls: 4, inputTokens: 400, outputTokens: 40, maxLatencyMs: 900 })
  expect(totals.cost).toBeCloseTo((400 * 0.4 + 40 * 1.6) / 1e6, 12)
  expect(overruns).toEqual([
    {
      limit: 'maxCalls',
      allowed: 3,
      actual: 4,
      call: 4,
      callLabel: '#4 agent chat/completions "gpt-4.1-mini" (replayed)',
    },
    {
      limit: 'maxInputTokens',
      allowed: 150,
      actual: 200,
      call: 2,
      callLabel: '#2 agent chat/completions "gpt-4.1-mini" (replayed)',
    },
    {
      limit: 'maxLatencyMs',
      allowed: 500,
      actual: 900,
      call: 2,
      callLabel: '#2 agent chat/completions "gpt-4.1-mini" (replayed)',
    },
  ])
})

test('a cost limit over a model with no price is refused, not counted as free', () => {
  expect(() =>
    measureBudget(
      [
        {
          caller: 'agent',
          endpoint: 'chat/completions',
          model: 'house-model',
          source: 'live',
          inputTokens: 5,
        },
      ],
      { maxCost: 0.01 },
      {},
    ),
  ).toThrow(/has no price/)
})
