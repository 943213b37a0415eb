// The AI Gateway (`@ai-sdk/gateway`): an AI SDK model named by a plain string goes to
// `POST <base>/language-model` with the model in a header. It is a model call, keyed with the
// model, recorded and replayed offline; in replay mode with no recording it is a miss, never a
// connection.
import { createGateway } from '@ai-sdk/gateway'
import { generateText, streamText } from 'ai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway'
import { entriesUnder, testIn, useCassetteFolder } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder()
let gateway: FakeGateway | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await gateway?.close()
  gateway = undefined
})
afterAll(() => stopCassetteServer())

const test1 = testIn('asks the gateway', 'test/cassettes/gateway.test.ts')

test('a gateway model call is recorded with its model in the key, and replays offline for the public gateway', async () => {
  gateway = await startFakeGateway()
  const local = createGateway({ baseURL: gateway.baseURL, apiKey: 'gw-test-key-1' })
  configureRubricate({ cassettes: { dir: folder.dir, mode: 'auto' } })
  const ask = (provider: typeof local, model: string) =>
    withCallContext({ test: test1 }, () =>
      generateText({ model: provider(model), prompt: 'Say hello.', maxRetries: 0 }),
    )
  expect((await ask(local, 'openai/gpt-4o')).text).toBe('Hello from openai/gpt-4o.')
  expect((await ask(local, 'anthropic/claude-sonnet-4')).text).toBe(
    'Hello from anthropic/claude-sonnet-4.',
  )
  const streamed = await withCallContext({ test: test1 }, async () => {
    const result = streamText({
      model: local('openai/gpt-4o'),
      prompt: 'Say hello.',
      maxRetries: 0,
    })
    return await result.text
  })
  expect(streamed).toBe('Hello from openai/gpt-4o.')
  await session.flush()
  expect(gateway.requests.map((request) => [request.model, request.streaming])).toEqual([
    ['openai/gpt-4o', false],
    ['anthropic/claude-sonnet-4', false],
    ['openai/gpt-4o', true],
  ])
  expect((await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint).sort()).toEqual([
    'ai/language-model/anthropic/claude-sonnet-4',
    'ai/language-model/openai/gpt-4o',
    'ai/language-model/openai/gpt-4o/stream',
  ])
  await gateway.close()
  gateway = undefined
  // CI: the public gateway's default address, the local gateway stopped. Each model gets its own
  // reply; nothing is dialled (the repository's loopback guard would refuse it).
  configureRubricate({ cassettes: { dir: folder.dir, mode: 'replay' } })
  const hosted = createGateway({ apiKey: 'gw-test-key-1' })
  expect((await ask(hosted, 'anthropic/claude-sonnet-4')).text).toBe(
    'Hello from anthropic/claude-sonnet-4.',
  )
  expect((await ask(hosted, 'openai/gpt-4o')).text).toBe('Hello from openai/gpt-4o.')
  // A model never recorded is a miss that names the gateway's endpoint and model.
  await expect(ask(hosted, 'google/gemini-2.5-pro')).rejects.toThrow(
    /RUBRICATE_CASSETTE_MISS|no recorded reply/,
  )
  expect(session.misses().map((miss) => miss.endpoint)).toEqual([
    'ai/language-model/google/gemini-2.5-pro',
  ])
})

test("a gateway call's key leaves out the SDK's user-agent, so an upgrade of `ai` replays the same entries", async () => {
  const { computeKey } = await import('../../src/cassettes/exchange/prepared-request')
  const body = (agent: string, extra: Record<string, string> = {}) => ({
    headers: { 'user-agent': agent, ...extra },
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
  })
  const endpoint = 'ai/language-model/openai/gpt-4o'
  expect(computeKey(endpoint, body('ai/6.0.325'))).toBe(computeKey(endpoint, body('ai/6.1.0')))
  // A header the user set is still part of the key; so is anything on another endpoint.
  expect(computeKey(endpoint, body('ai/6.0.325', { 'x-tenant': 'a' }))).not.toBe(
    computeKey(endpoint, body('ai/6.0.325', { 'x-tenant': 'b' })),
  )
  expect(computeKey('chat/completions', body('ai/6.0.325'))).not.toBe(
    computeKey('chat/completions', body('ai/6.1.0')),
  )
  // What is stored is what is keyed: the recorded entries carry no user-agent.
  gateway = await startFakeGateway()
  const local = createGateway({ baseURL: gateway.baseURL, apiKey: 'gw-test-key-1' })
  configureRubricate({ cassettes: { dir: folder.dir, mode: 'auto' } })
  await withCallContext({ test: test1 }, () =>
    generateText({ model: local('openai/gpt-4o'), prompt: 'Say hello.', maxRetries: 0 }),
  )
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(JSON.stringify(entry?.request.body)).not.toContain('user-agent')
})
