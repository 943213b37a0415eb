import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { configureRubricate, resetRubricateConfig } from '../../src'
import { rootCause } from '../../src/errors'
import { setPluginConfig } from '../../src/runtime/runtime'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf, scoreWith } from './helpers'

// One server per level of ARCHITECTURE.md §4.3, so each test shows which endpoint got the request.
const servers: Record<'call' | 'env' | 'configure' | 'plugin', FakeOpenAI> = {} as never

beforeAll(async () => {
  for (const level of ['call', 'env', 'configure', 'plugin'] as const) {
    servers[level] = await startFakeOpenAI({ reply: { score: 1 } })
  }
})

afterAll(async () => {
  for (const server of Object.values(servers)) await server.close()
})

afterEach(() => {
  vi.unstubAllEnvs()
  resetRubricateConfig()
  setPluginConfig({})
  for (const server of Object.values(servers)) server.clearRequests()
})

function setEveryLevelBelowCall(): void {
  vi.stubEnv('RUBRICATE_JUDGE', 'openai/env-model')
  vi.stubEnv('OPENAI_BASE_URL', servers.env.baseURL)
  vi.stubEnv('OPENAI_API_KEY', 'sk-env')
  configureRubricate({
    judge: { model: 'configure-model', baseURL: servers.configure.baseURL, apiKey: 'k' },
  })
  setPluginConfig({
    judge: { model: 'plugin-model', baseURL: servers.plugin.baseURL, apiKey: 'k' },
  })
}

function received(): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(servers).map(([level, server]) => [
      level,
      server.requests.map((request) => request.body.model),
    ]),
  )
}

test('the judge given at the call site gets the request, whatever else is configured', async () => {
  setEveryLevelBelowCall()
  const callJudge = { model: 'call-model', baseURL: servers.call.baseURL, apiKey: 'k' }
  await scoreWith(callJudge).run({ output: 'x' })
  expect(received()).toEqual({ call: ['call-model'], env: [], configure: [], plugin: [] })
})

test('without a call-site judge, RUBRICATE_JUDGE wins over configureRubricate and the plugin', async () => {
  setEveryLevelBelowCall()
  await scoreWith(undefined).run({ output: 'x' })
  expect(received()).toEqual({ call: [], env: ['env-model'], configure: [], plugin: [] })
  expect(servers.env.requests[0]?.headers.authorization).toBe('Bearer sk-env')
})

test('without the environment, configureRubricate wins over the plugin', async () => {
  setEveryLevelBelowCall()
  vi.stubEnv('RUBRICATE_JUDGE', '')
  await scoreWith(undefined).run({ output: 'x' })
  expect(received()).toEqual({ call: [], env: [], configure: ['configure-model'], plugin: [] })
})

test('the plugin judge is used when nothing stronger sets one', async () => {
  setPluginConfig({
    judge: { model: 'plugin-model', baseURL: servers.plugin.baseURL, apiKey: 'k' },
  })
  await scoreWith(undefined).run({ output: 'x' })
  expect(received()).toEqual({ call: [], env: [], configure: [], plugin: ['plugin-model'] })
})

test('with no judge anywhere (the default), RUBRICATE_NO_JUDGE names every place and nothing is sent', async () => {
  const error = await rejectionOf(scoreWith(undefined).run({ output: 'x' }))
  expect(error).toMatchObject({ code: 'RUBRICATE_SCORER_RUN', failedStep: 'generateScore' })
  expect(rootCause(error)).toMatchObject({
    name: 'NoJudgeError',
    code: 'RUBRICATE_NO_JUDGE',
    message: linked(
      `[rubricate] No judge model is configured, so this rubric cannot be judged.
Set one in any of these places (strongest first):
  - the call: toSatisfyRubric(criteria, { judge: 'openai/gpt-4.1-mini' }), createRubricScorer({ judge }) or createScorer({ judge: { model } })
  - the environment: RUBRICATE_JUDGE=openai/gpt-4.1-mini
  - a setup file: configureRubricate({ judge: 'openai/gpt-4.1-mini' })
  - vitest.config: plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })]`,
      'no-judge',
    ),
  })
  expect(received()).toEqual({ call: [], env: [], configure: [], plugin: [] })
})

test('a judge call keeps the configuration it started with: its retry is not served under a mode set meanwhile', async () => {
  // The first attempt's reply is a 503, and while it is being answered RUBRICATE_CASSETTES
  // turns to replay. The retry belongs to the same call: it goes where the first attempt went.
  let attempts = 0
  servers.call.setReply(() => {
    attempts++
    if (attempts > 1) return { score: 0.5 }
    vi.stubEnv('RUBRICATE_CASSETTES', 'replay')
    return fakeReply.status(503, { message: 'busy' })
  })
  try {
    const judge = { model: 'call-model', baseURL: servers.call.baseURL, apiKey: 'k' }
    const result = await scoreWith(judge, { maxRetries: 1 }).run({ output: 'x' })
    expect(result.score).toBe(0.5)
    expect(attempts).toBe(2)
  } finally {
    servers.call.setReply({ score: 1 })
  }
})
