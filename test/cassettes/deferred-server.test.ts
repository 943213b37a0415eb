// The setup file's msw server on msw 2 starts at the worker's first request, through gates on
// `fetch`, `http` and `https` (src/cassettes/agents/deferred-server.ts). This file is one worker:
// the order of its tests is the order of a test file's requests.
import { createRequire } from 'node:module'
import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { isServerDeferred } from '../../src/cassettes/agents/deferred-server'
import { isMswActive } from '../../src/cassettes/agents/msw-compat'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { asRubricateLive } from '../../src/cassettes/agents/rubricate-live'
import { withCallContext } from '../../src/runtime/call-context'
import { startFakeOpenAI } from '../../src/testing'
import { entriesUnder, testIn, useCassetteFolder } from './support'

const ON_MSW_3 = (
  createRequire(import.meta.url)('msw/package.json') as { version: string }
).version.startsWith('3.')

// What the setup file does, then a test file that builds its client at module scope, before
// anything has started msw.
const session = startCassetteServer({}, { deferServer: true })
const fake = await startFakeOpenAI({ reply: 'Built at module scope.' })
const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
const folder = useCassetteFolder()
const ask = { model: 'gpt-agent', messages: [{ role: 'user' as const, content: 'hello' }] }

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
})
afterAll(async () => {
  stopCassetteServer()
  await fake.close()
})

test.skipIf(ON_MSW_3)(
  'nothing is intercepted and msw is not started before the first request',
  () => {
    expect(isServerDeferred()).toBe(true)
    expect(isMswActive()).toBe(false)
  },
)

test.skipIf(ON_MSW_3)(
  "rubricate's own live request goes out without starting the server (it is no agent call)",
  async () => {
    const response = await asRubricateLive(() => fetch(`${fake.url}/v1/health`))
    expect(response.status).toBe(404)
    expect(isServerDeferred()).toBe(true)
    expect(isMswActive()).toBe(false)
  },
)

test('a client built at module scope, before the server started, is recorded, then replayed', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const test = testIn('module scope')
  const live = await withCallContext({ test }, () => client.chat.completions.create(ask))
  expect(live.choices[0]?.message.content).toBe('Built at module scope.')
  expect(isServerDeferred()).toBe(false)
  expect(isMswActive()).toBe(true)
  await session.flush()
  expect((await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint)).toEqual([
    'chat/completions',
  ])
  const requests = fake.requests.length
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await withCallContext({ test }, () => client.chat.completions.create(ask))
  expect(replayed).toEqual(live)
  expect(fake.requests).toHaveLength(requests)
})
