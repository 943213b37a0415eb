import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const ask = (content: string) => ({
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content }],
})

test('a client built with the fetch adapter records without msw and replays with no server', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: 'from a script' })
  const client = new OpenAI({
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    fetch: createCassetteFetch(),
  })
  const live = await client.chat.completions.create(ask('hi'))
  expect(await entriesUnder(folder.dir)).toHaveLength(1)
  await server.close()
  expect(await client.chat.completions.create(ask('hi'))).toEqual(live)
})

test('the adapter passes other requests to the fetch it was given, and answers a miss with a 400', async () => {
  configureRubricate({ cassettes: { mode: 'replay' } })
  server = await startFakeOpenAI({ reply: fakeReply.raw({ body: { ok: true } }) })
  const seen: string[] = []
  const cassetteFetch = createCassetteFetch({
    fetch: (input, init) => {
      seen.push(new Request(input, init).url)
      return fetch(input, init)
    },
  })
  expect(await (await cassetteFetch(`${server.url}/health`)).json()).toEqual({ ok: true })
  const miss = await cassetteFetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify(ask('nothing recorded')),
  })
  expect(miss.status).toBe(400)
  expect(miss.headers.get('x-should-retry')).toBe('false')
  const body = await miss.json()
  expect(body.error.code).toBe('RUBRICATE_CASSETTE_MISS')
  expect(body.error.message).toMatch(
    /^\[rubricate\] Cassette miss: no recorded reply matches this model call \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\)/,
  )
  expect(seen).toEqual([`${server.url}/health`])
  expect(server.requests).toHaveLength(1)
})

test('a reply body cut upstream rejects the fetch as a network error, in every mode, and nothing is recorded', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: fakeReply.text('z'.repeat(300), { dropAfterChunks: 2 }) })
  const client = new OpenAI({
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 1,
    fetch: createCassetteFetch(),
  })
  await expect(client.chat.completions.create(ask('cut'))).rejects.toBeInstanceOf(
    OpenAI.APIConnectionError,
  )
  // A connection error is retried by the SDK, as it would be without cassettes.
  expect(server.requests).toHaveLength(2)
  expect(await entriesUnder(folder.dir)).toEqual([])
  configureRubricate({ cassettes: { mode: 'off' } })
  server.clearRequests()
  server.setReply(fakeReply.drop())
  await expect(client.chat.completions.create(ask('drop'))).rejects.toBeInstanceOf(
    OpenAI.APIConnectionError,
  )
  expect(server.requests).toHaveLength(2)
})
