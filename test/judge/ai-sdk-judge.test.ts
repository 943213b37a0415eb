import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, afterEach, expect, test, vi } from 'vitest'
import { configureRubricate, createRubricScorer } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { rootCause } from '../../src/errors'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, testIn, useCassetteFolder } from '../cassettes/support'
import { linked } from '../support/error-page'
import { judgeBy } from '../support/rubric-judge'
import { rejectionOf, scoreWith } from './helpers'

// As under the setup file: msw intercepts every fetch, the AI SDK provider's included.
const session = startCassetteServer()
const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  vi.unstubAllEnvs()
  await server?.close()
  server = undefined
})
afterAll(() => stopCassetteServer())

const FILE = 'test/judge/ai-sdk-judge.test.ts'
const inTest = <T>(fn: () => Promise<T>) =>
  withCallContext({ test: testIn('judges with an AI SDK model', FILE) }, fn)

test('an AI SDK model judges: one cassette entry per judge call, replayed with CI=true and no request', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeBy(() => true, 'Clear.') })
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-test')
  const scorer = createRubricScorer({ model, criteria: '- Answers the question\n- Is polite' })
  const run = { input: 'Capital of France?', output: 'Paris, thank you for asking.' }
  const recorded = await inTest(() => scorer.run(run))
  expect(recorded.passed).toBe(true)
  expect(server.requests).toHaveLength(1)
  expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test')
  const entries = await entriesUnder(folder.dir)
  // The judge call only: the provider's HTTP request is not recorded again as an agent call.
  expect(entries.map((entry) => [entry.request.endpoint, entry.request.body.model])).toEqual([
    ['judge-model', 'openai.chat/gpt-test'],
  ])
  expect(recorded.judgeCalls.map((call) => [call.source, call.model])).toEqual([
    ['recorded', 'openai.chat/gpt-test'],
  ])
  expect(recorded.judgeCalls[0]?.usage?.totalTokens).toBeGreaterThan(0)
  await server.close()

  configureRubricate({ cassettes: { mode: undefined } })
  process.env.CI = 'true'
  const replayed = await inTest(() => scorer.run(run))
  expect(replayed.verdicts).toEqual(recorded.verdicts)
  expect(replayed.judgeCalls.map((call) => call.source)).toEqual(['replayed'])
})

test('an AI SDK model of an unknown specification is a usage error when the scorer is built', () => {
  const legacy = { specificationVersion: 'v1', provider: 'old', modelId: 'm', doGenerate() {} }
  expect(() => scoreWith(legacy as never)).toThrow(
    '[rubricate] The judge "old/m" is an AI SDK model of specification "v1", which rubricate cannot call. Use a provider package built for AI SDK 5 or 6 (specification "v2" or "v3"), or give "<provider>/<model>".',
  )
})

test('"groq/<model>" reaches GROQ_BASE_URL with GROQ_API_KEY; Mastra\'s { id, url, apiKey, headers } too', async () => {
  configureRubricate({ cassettes: { mode: 'off' } })
  server = await startFakeOpenAI({ reply: { score: 1 } })
  vi.stubEnv('GROQ_BASE_URL', server.baseURL)
  vi.stubEnv('GROQ_API_KEY', 'gsk-test')
  vi.stubEnv('OPENAI_API_KEY', 'sk-not-for-groq')
  expect((await scoreWith('groq/llama-3.1-8b').run({ output: 'x' })).score).toBe(1)
  expect(server.requests[0]?.headers.authorization).toBe('Bearer gsk-test')
  expect(server.requests[0]?.body.model).toBe('llama-3.1-8b')
  const config = {
    id: 'openrouter/anthropic/claude-sonnet-4.5',
    url: server.baseURL,
    apiKey: 'or-test',
    headers: { 'x-title': 'evals' },
  }
  expect((await scoreWith(config).run({ output: 'x' })).score).toBe(1)
  expect(server.requests[1]?.headers).toMatchObject({
    authorization: 'Bearer or-test',
    'x-title': 'evals',
  })
  expect(server.requests[1]?.body.model).toBe('anthropic/claude-sonnet-4.5')
})

test('a provider key that is not set fails a live call before any request, naming the variable; replay misses instead', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: { score: 1 } })
  vi.stubEnv('MISTRAL_BASE_URL', server.baseURL)
  vi.stubEnv('MISTRAL_API_KEY', '')
  const live = rootCause(
    await rejectionOf(inTest(() => scoreWith('mistral/small').run({ output: 'x' }))),
  )
  expect(live).toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] The judge "small" must make a live call, but MISTRAL_API_KEY is not set, so the provider would refuse it. Set MISTRAL_API_KEY, or give the key in the judge: { id, apiKey }. Cassettes replay without a key; only live calls need one.',
      'usage',
    ),
  })
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replay = rootCause(
    await rejectionOf(inTest(() => scoreWith('mistral/small').run({ output: 'x' }))),
  )
  expect(replay).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
  expect(server.requests).toHaveLength(0)
  expect(() => scoreWith({ id: 'groq/x', baseURL: 'http://127.0.0.1:1' } as never)).toThrow(
    /The judge model config.*"baseURL"/,
  )
})

test('a specification v2 model (AI SDK 5) is called with the prompt and schema, its numeric usage read', async () => {
  configureRubricate({ cassettes: { mode: 'off' } })
  const calls: any[] = []
  const v2 = {
    specificationVersion: 'v2',
    provider: 'acme.chat',
    modelId: 'judge-1',
    async doGenerate(options: any) {
      calls.push(options)
      return {
        content: [
          { type: 'text', text: '{"score":' },
          { type: 'text', text: '0.5}' },
        ],
        usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
      }
    },
  }
  const result = await scoreWith(v2).run({ output: 'Paris' })
  expect(result.score).toBe(0.5)
  expect(result.judgeCalls[0]).toMatchObject({
    model: 'acme.chat/judge-1',
    usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
  })
  expect(calls[0].prompt).toEqual([
    { role: 'system', content: 'You grade answers.' },
    {
      role: 'user',
      content: [{ type: 'text', text: expect.stringMatching(/^Score this answer: Paris/) }],
    },
  ])
  expect(calls[0].responseFormat).toMatchObject({ type: 'json', name: 'score' })
})
