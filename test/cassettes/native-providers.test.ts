// The providers' native APIs through the agents' cassettes (issue 29, items 4 and 5), with the real
// `@anthropic-ai/sdk` and `@google/genai` against rubricate's fake servers on loopback: each call is
// recorded with no mode set (auto outside CI), then replayed byte for byte with CI set and the
// server closed, so a replay that tried the network would fail.

import { readFile } from 'node:fs/promises'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { type FakeProviderServer, startFakeAnthropic, startFakeGemini } from '../../src/testing'
import { entriesUnder, filesUnder, useCassetteFolder } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder()
let server: FakeProviderServer | undefined
const KEY = 'sk-ant-test-0123456789abcdef'
const GOOGLE_KEY = 'AIzaFakeKey0123456789abcdefghij'

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await server?.close()
  server = undefined
})
afterAll(() => stopCassetteServer())

async function goOffline(): Promise<void> {
  await session.flush()
  await server?.close()
  process.env.CI = 'true'
}

async function rawCassettes(): Promise<string> {
  const files = await filesUnder(folder.dir)
  const texts = await Promise.all(files.map((file) => readFile(`${folder.dir}/${file}`, 'utf8')))
  return texts.join('\n')
}

test('an Anthropic Messages call is recorded with its tokens, then replayed offline with CI set', async () => {
  server = await startFakeAnthropic({ reply: 'Paris is the capital.' })
  const client = new Anthropic({ baseURL: server.url, apiKey: KEY, maxRetries: 0 })
  const request = {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'Capital of France?' }],
  }
  const live = await client.messages.create(request)
  expect(live.content).toEqual([{ type: 'text', text: 'Paris is the capital.' }])
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request).toMatchObject({ method: 'POST', endpoint: 'v1/messages', body: request })
  expect(session.takeUsage().agentCalls).toMatchObject({
    recorded: 1,
    tokens: { live: expect.any(Number), replayed: 0 },
  })
  await goOffline()
  const replayed = await client.messages.create(request)
  expect(replayed).toEqual(live)
  expect(session.takeUsage().agentCalls).toMatchObject({ replayed: 1, failed: 0 })
  expect(await rawCassettes()).not.toContain(KEY)
})

test('a streamed Anthropic message is recorded with its streamedText and tokens, and replays byte for byte', async () => {
  server = await startFakeAnthropic({ reply: 'Streaming from Claude, word by word.' })
  const client = new Anthropic({ baseURL: server.url, apiKey: KEY, maxRetries: 0 })
  const request = {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'Stream something.' }],
  }
  const live = await client.messages.stream(request).finalMessage()
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.response.headers['content-type']).toBe('text/event-stream')
  const raw = JSON.parse(
    await readFile(`${folder.dir}/${(await filesUnder(folder.dir))[0]}`, 'utf8'),
  )
  expect(raw.response.streamedText).toBe('Streaming from Claude, word by word.')
  const usage = session.takeUsage().agentCalls
  expect(usage?.tokens?.live).toBe(live.usage.input_tokens + live.usage.output_tokens)
  await goOffline()
  const replayed = await client.messages.stream(request).finalMessage()
  expect(replayed).toEqual(live)
  expect(session.takeUsage().agentCalls?.tokens?.replayed).toBe(usage?.tokens?.live)
})

test('Gemini keys the model in its path: one question to two models gets two replies, plain and streamed', async () => {
  server = await startFakeGemini({
    reply: (request) => `Answer from ${request.path.split('/').at(-1)?.split(':')[0]}.`,
  })
  const ai = new GoogleGenAI({ apiKey: GOOGLE_KEY, httpOptions: { baseUrl: server.url } })
  const ask = (model: string) =>
    ai.models.generateContent({ model, contents: 'Capital of France?' })
  const pro = await ask('gemini-2.5-pro')
  const flash = await ask('gemini-2.5-flash')
  expect([pro.text, flash.text]).toEqual([
    'Answer from gemini-2.5-pro.',
    'Answer from gemini-2.5-flash.',
  ])
  let streamedLive = ''
  for await (const chunk of await ai.models.generateContentStream({
    model: 'gemini-2.5-flash',
    contents: 'Count to three.',
  })) {
    streamedLive += chunk.text ?? ''
  }
  await session.flush()
  const entries = await entriesUnder(folder.dir)
  expect(entries.map((entry) => entry.request.endpoint).sort()).toEqual([
    'models/gemini-2.5-flash:generateContent',
    'models/gemini-2.5-flash:streamGenerateContent',
    'models/gemini-2.5-pro:generateContent',
  ])
  const stream = entries.find((entry) => entry.request.endpoint.endsWith(':streamGenerateContent'))
  expect(stream.request.query).toEqual({ alt: 'sse' })
  expect(session.takeUsage().agentCalls).toMatchObject({ recorded: 3 })
  const text = await rawCassettes()
  expect(text).not.toContain(GOOGLE_KEY)
  expect(text).toContain('"streamedText": "Answer from gemini-2.5-flash."')

  await goOffline()
  expect((await ask('gemini-2.5-flash')).text).toBe('Answer from gemini-2.5-flash.')
  expect((await ask('gemini-2.5-pro')).text).toBe('Answer from gemini-2.5-pro.')
  let streamed = ''
  for await (const chunk of await ai.models.generateContentStream({
    model: 'gemini-2.5-flash',
    contents: 'Count to three.',
  })) {
    streamed += chunk.text ?? ''
  }
  expect(streamed).toBe(streamedLive)
  const usage = session.takeUsage().agentCalls
  expect(usage).toMatchObject({ replayed: 3, failed: 0 })
  expect(usage?.tokens?.replayed).toBeGreaterThan(0)
})

test('keys in x-goog-api-key, api-key and ?key= are redacted from the reply and never keyed', async () => {
  const echoed = 'AIzaEchoedKey0123456789abcdefgh'
  server = await startFakeGemini({
    reply: (request) =>
      `Keys seen: ${request.query.key ?? ''} ${request.headers['api-key'] ?? ''} ${request.headers['x-goog-api-key'] ?? ''}`,
  })
  const body = JSON.stringify({ contents: [{ parts: [{ text: 'Which key?' }] }] })
  const call = (query: string, headers: Record<string, string>) =>
    fetch(`${server?.url}/v1beta/models/gemini-2.5-flash:generateContent${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })
  const live = await (await call(`?key=${echoed}`, { 'api-key': `${echoed}-azure` })).json()
  expect(JSON.stringify(live)).toContain(echoed)
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.query).toBeUndefined()
  const text = await rawCassettes()
  expect(text).not.toContain(echoed)
  expect(text).toContain('[REDACTED:')
  // The same call with the key in a header instead replays the same entry.
  await goOffline()
  const replayed = await call('', { 'x-goog-api-key': echoed })
  expect(replayed.status).toBe(200)
  expect(session.takeUsage().agentCalls).toMatchObject({ recorded: 1, replayed: 1, failed: 0 })
})
