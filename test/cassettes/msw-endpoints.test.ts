// The agent path for every built-in endpoint besides Chat Completions (msw-agent.test.ts): each
// exchange is recorded with no mode set (auto outside CI), then replayed with CI set and the
// upstream closed, so a replay that tried the network would fail.

import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder, useCassetteFolder } from './support'

// What the setup file does at its top level: every client below is intercepted.
const session = startCassetteServer()
const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await server?.close()
  server = undefined
})
afterAll(() => stopCassetteServer())

/** Let the recordings finish, close the upstream and set CI: what follows can only replay. */
async function goOffline(): Promise<void> {
  await session.flush()
  await server?.close()
  process.env.CI = 'true'
}

async function clientFor(reply: Parameters<typeof startFakeOpenAI>[0]): Promise<OpenAI> {
  server = await startFakeOpenAI(reply)
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
}

/** POST to Ollama's native chat endpoint with plain fetch. */
function ollamaChat(content: string, extra: object = {}): Promise<Response> {
  return fetch(`${server?.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content }], ...extra }),
  })
}

/** Read an NDJSON body line by line, noting when each line arrived. */
async function readLines(response: Response): Promise<{ lines: any[]; arrivals: number[] }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const lines: any[] = []
  const arrivals: number[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let end = buffer.indexOf('\n')
    while (end >= 0) {
      lines.push(JSON.parse(buffer.slice(0, end)))
      arrivals.push(performance.now())
      buffer = buffer.slice(end + 1)
      end = buffer.indexOf('\n')
    }
  }
  expect(buffer).toBe('')
  return { lines, arrivals }
}

test('a Responses API call is recorded, then replayed offline with CI set', async () => {
  const client = await clientFor({ reply: 'Paris is the capital.' })
  const request = { model: 'gpt-test', input: 'Capital of France?' }
  const live = await client.responses.create(request)
  expect(live.output_text).toBe('Paris is the capital.')
  const [entry] = await entriesUnder(folder.dir)
  expect(entry).toMatchObject({
    request: { method: 'POST', endpoint: 'responses', body: request },
    response: { status: 200, headers: { 'content-type': 'application/json' } },
  })
  await goOffline()
  const replayed = await client.responses.create(request)
  expect(replayed).toEqual(live)
  expect(replayed.output_text).toBe('Paris is the capital.')
  expect(server?.requests).toHaveLength(1)
})

test('a streamed Responses API call replays the same events in the same order, and the same text', async () => {
  const client = await clientFor({
    reply: fakeReply.text('one two three', { chunkDelayMs: 5 }),
  })
  const consume = async () => {
    const events: unknown[] = []
    let text = ''
    for await (const event of await client.responses.create({
      model: 'gpt-test',
      input: 'count',
      stream: true,
    })) {
      events.push(event)
      if (event.type === 'response.output_text.delta') text += event.delta
    }
    return { events, text }
  }
  const live = await consume()
  expect(live.text).toBe('one two three')
  expect(live.events.map((event) => (event as { type: string }).type)).toEqual([
    'response.created',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.done',
    'response.completed',
  ])
  await goOffline()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.endpoint).toBe('responses')
  expect(entry.response.headers).toEqual({ 'content-type': 'text/event-stream' })
  expect(entry.response.sse).toHaveLength(6)
  expect(entry.response.sse[1].chunk).toMatch(/^event: response\.output_text\.delta\ndata: /)
  const replayed = await consume()
  expect(replayed).toEqual(live)
})

test('embeddings are recorded and replayed offline with equal vectors', async () => {
  const client = await clientFor({})
  const request = { model: 'embed-test', input: ['alpha', 'beta'] }
  const live = await client.embeddings.create(request)
  expect(live.data).toHaveLength(2)
  expect(live.data[0]?.embedding).toHaveLength(8)
  await goOffline()
  const [entry] = await entriesUnder(folder.dir)
  // The SDK asks for base64 and decodes it: the cassette holds what went over the wire.
  expect(entry.request).toEqual({
    method: 'POST',
    endpoint: 'embeddings',
    body: { ...request, encoding_format: 'base64' },
  })
  const replayed = await client.embeddings.create(request)
  expect(replayed.data.map((d) => d.embedding)).toEqual(live.data.map((d) => d.embedding))
  expect(replayed).toEqual(live)
})

test('legacy completions, plain and streamed, are recorded and replayed offline', async () => {
  const client = await clientFor({ reply: 'once upon a time' })
  const request = { model: 'gpt-test-instruct', prompt: 'Begin a story' }
  const streamText = async () => {
    let text = ''
    for await (const chunk of await client.completions.create({ ...request, stream: true }))
      text += chunk.choices[0]?.text ?? ''
    return text
  }
  const live = await client.completions.create(request)
  expect(live.choices[0]?.text).toBe('once upon a time')
  expect(await streamText()).toBe('once upon a time')
  await goOffline()
  const entries = await entriesUnder(folder.dir)
  expect(entries.map((e) => e.request.endpoint)).toEqual(['completions', 'completions'])
  expect(entries.map((e) => Object.keys(e.response).at(-1)).sort()).toEqual(['json', 'sse'])
  expect(await client.completions.create(request)).toEqual(live)
  expect(await streamText()).toBe('once upon a time')
  expect(server?.requests).toHaveLength(2)
})

test("Ollama's /api/chat NDJSON stream reaches the client line by line while it is recorded, and replays as the same lines", async () => {
  server = await startFakeOpenAI({ reply: fakeReply.text('a b c', { chunkDelayMs: 150 }) })
  const live = await ollamaChat('letters')
  expect(live.headers.get('content-type')).toBe('application/x-ndjson')
  const { lines, arrivals } = await readLines(live)
  expect(lines.map((line) => line.message.content)).toEqual(['a ', 'b ', 'c', ''])
  expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop' })
  // Buffered, every line would arrive at the end; passed through, they are spread over 3 pauses
  // of 150 ms (lower bound only).
  expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(200)
  await goOffline()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request).toEqual({
    method: 'POST',
    endpoint: 'api/chat',
    body: { model: 'llama3.2', messages: [{ role: 'user', content: 'letters' }] },
  })
  expect(entry.response.headers).toEqual({ 'content-type': 'application/x-ndjson' })
  // One reviewable item per line, as for SSE events.
  expect(entry.response.sse.map((item: { chunk: string }) => item.chunk)).toEqual(
    lines.map((line) => `${JSON.stringify(line)}\n`),
  )
  const replayed = await ollamaChat('letters')
  expect(replayed.headers.get('content-type')).toBe('application/x-ndjson')
  expect((await readLines(replayed)).lines).toEqual(lines)
  expect(server?.requests).toHaveLength(1)
})

test('the first NDJSON lines reach the client before the upstream has sent the last one, and a cut stream is not recorded', async () => {
  // The upstream sends two lines, then cuts the connection: it never sends the last one.
  server = await startFakeOpenAI({ reply: fakeReply.text('a b c', { dropAfterChunks: 2 }) })
  const response = await ollamaChat('cut')
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let received = ''
  const failure = await (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return undefined
      received += decoder.decode(value, { stream: true })
    }
  })().catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(Error)
  expect(
    received
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).message.content),
  ).toEqual(['a ', 'b '])
  await session.flush()
  expect(await filesUnder(folder.dir)).toEqual([])
  expect(session.errors()).toEqual([])
})

test('a non-streamed Ollama chat is recorded as JSON and replayed offline', async () => {
  server = await startFakeOpenAI({ reply: 'whole answer' })
  const live = await (await ollamaChat('whole', { stream: false })).json()
  expect(live.message.content).toBe('whole answer')
  await goOffline()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.response.json).toEqual(live)
  expect(await (await ollamaChat('whole', { stream: false })).json()).toEqual(live)
})

test('a plain reply whose body is cut upstream is a connection error for the client, not a rubricate bug, and nothing is recorded', async () => {
  const client = await clientFor({
    reply: fakeReply.text('y'.repeat(300), { dropAfterChunks: 2 }),
  })
  await expect(client.responses.create({ model: 'gpt-test', input: 'cut' })).rejects.toBeInstanceOf(
    OpenAI.APIConnectionError,
  )
  await session.flush()
  expect(await filesUnder(folder.dir)).toEqual([])
  expect(session.errors()).toEqual([])
})
