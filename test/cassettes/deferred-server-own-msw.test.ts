// A project's own msw server that listens before the worker's first request, while rubricate's
// server waits for that request (src/cassettes/agents/deferred-server.ts): the project's server
// keeps its requests, rubricate's never starts under it, and a model call it lets through is
// still recorded and replayed (by the fetch fallback below it), without going round in a loop.
import { createRequire } from 'node:module'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { isServerDeferred } from '../../src/cassettes/agents/deferred-server'
import { listenOptions } from '../../src/cassettes/agents/msw-compat'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { withCallContext } from '../../src/runtime/call-context'
import { startFakeOpenAI } from '../../src/testing'
import { entriesUnder, listen, testIn, useCassetteFolder } from './support'

const ON_MSW_3 = (
  createRequire(import.meta.url)('msw/package.json') as { version: string }
).version.startsWith('3.')

const session = startCassetteServer({}, { deferServer: true })
// A client built before the project's server listens keeps rubricate's gate.
const fake = await startFakeOpenAI({ reply: 'Let through by the project.' })
const early = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
const own = setupServer(
  http.get('https://api.backend.example/orders/:id', () =>
    HttpResponse.json({ status: 'shipped' }),
  ),
)
listen(own, listenOptions('bypass'))
const late = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
const folder = useCassetteFolder()

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
})
afterAll(async () => {
  own.close()
  stopCassetteServer()
  await fake.close()
})

test("the project's mocks answer, and model calls it lets through are recorded and replayed from clients built before and after it listened", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const test = testIn('own server first')
  expect(await (await fetch('https://api.backend.example/orders/42')).json()).toEqual({
    status: 'shipped',
  })
  const ask = (content: string) => ({
    model: 'gpt-agent',
    messages: [{ role: 'user' as const, content }],
  })
  const fromEarly = await withCallContext({ test }, () =>
    early.chat.completions.create(ask('early')),
  )
  const fromLate = await withCallContext({ test }, () => late.chat.completions.create(ask('late')))
  expect([fromEarly, fromLate].map((c) => c.choices[0]?.message.content)).toEqual([
    'Let through by the project.',
    'Let through by the project.',
  ])
  // Each request reached the model once: no second pass through the project's server.
  expect(fake.requests).toHaveLength(2)
  // On msw 2 rubricate's server never started under the project's.
  if (!ON_MSW_3) expect(isServerDeferred()).toBe(true)
  await session.flush()
  expect((await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint)).toEqual([
    'chat/completions',
    'chat/completions',
  ])
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await withCallContext({ test }, () =>
    Promise.all([
      early.chat.completions.create(ask('early')),
      late.chat.completions.create(ask('late')),
    ]),
  )
  expect(replayed).toEqual([fromEarly, fromLate])
  expect(fake.requests).toHaveLength(2)
})
