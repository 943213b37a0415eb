// What the setup file does at its top level: every client below is intercepted.
import { createOpenAI } from '@ai-sdk/openai'
import { streamText } from 'ai'
import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { placeholderOf } from '../../src/cassettes/redaction/secret-patterns'
import { markTestRunning, withCallContext } from '../../src/runtime/call-context'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder, testIn, useCassetteFolder } from './support'

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

const FILE = 'test/cassettes/msw-agent.test.ts'
const ask = (content: string) => ({
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content }],
})

test('an agent call is recorded in auto mode and replayed with no server', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: 'Live answer' })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const live = await withCallContext({ test: testIn('agent answers', FILE) }, () =>
    client.chat.completions.create(ask('hello')),
  )
  expect(server.requests).toHaveLength(1)
  const [entry] = await entriesUnder(folder.dir)
  expect(entry).toMatchObject({
    recordedBy: `${FILE} > agent answers`,
    request: { method: 'POST', endpoint: 'chat/completions', body: ask('hello') },
    response: { status: 200, headers: { 'content-type': 'application/json' } },
  })
  expect(session.usedKeys()).toEqual([entry.key])
  await server.close()
  const replayed = await withCallContext({ test: testIn('agent answers', FILE) }, () =>
    client.chat.completions.create(ask('hello')),
  )
  expect(replayed).toEqual(live)
})

test('a retried 429 completes, and nothing but the final reply is recorded', async () => {
  configureRubricate({ cassettes: { mode: 'record' } })
  server = await startFakeOpenAI({
    reply: [fakeReply.status(429, { retryAfter: 0 }), fakeReply.status(503), 'after retries'],
  })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 3 })
  const completion = await client.chat.completions.create(ask('busy?'))
  expect(completion.choices[0]?.message.content).toBe('after retries')
  expect(server.requests).toHaveLength(3)
  expect((await entriesUnder(folder.dir)).map((e) => e.response.status)).toEqual([200])
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await client.chat.completions.create(ask('busy?'))
  expect(replayed.choices[0]?.message.content).toBe('after retries')
  expect(server.requests).toHaveLength(3)
})

test('a 429 that never clears fails after the retries instead of hanging', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: fakeReply.status(429, { retryAfter: 0 }) })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 2 })
  await expect(client.chat.completions.create(ask('busy'))).rejects.toMatchObject({ status: 429 })
  expect(server.requests).toHaveLength(3)
  expect(await filesUnder(folder.dir)).toEqual([])
})

test('a gzip reply passes through and is recorded decoded', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: fakeReply.text('compressed', { gzip: true }) })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const completion = await client.chat.completions.create(ask('zip'))
  expect(completion.choices[0]?.message.content).toBe('compressed')
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.response.json.choices[0].message.content).toBe('compressed')
  await server.close()
  expect((await client.chat.completions.create(ask('zip'))).choices[0]?.message.content).toBe(
    'compressed',
  )
})

test('a stream reaches the client chunk by chunk while it is recorded, and replays as a stream', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: fakeReply.text('one two three', { chunks: ['one ', 'two ', 'three'], chunkDelayMs: 60 }),
  })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const arrivals: number[] = []
  let text = ''
  const stream = await client.chat.completions.create({ ...ask('count'), stream: true })
  for await (const chunk of stream) {
    arrivals.push(performance.now())
    text += chunk.choices[0]?.delta.content ?? ''
  }
  expect(text).toBe('one two three')
  // Buffered, every chunk would arrive at the end; streamed, they are spread over the delays.
  expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThan(100)
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.response.headers).toEqual({ 'content-type': 'text/event-stream' })
  expect(entry.response.sse.map((c: { chunk: string }) => c.chunk).at(-1)).toBe('data: [DONE]\n\n')
  expect(entry.response.sse).toHaveLength(6)
  await server.close()
  let replayed = ''
  for await (const chunk of await client.chat.completions.create({
    ...ask('count'),
    stream: true,
  })) {
    replayed += chunk.choices[0]?.delta.content ?? ''
  }
  expect(replayed).toBe('one two three')
})

test('the AI SDK consumes a replayed stream', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: fakeReply.text('streamed by the AI SDK', { chunkDelayMs: 5 }),
  })
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const live = streamText({ model: provider.chat('gpt-test'), prompt: 'Say it' })
  expect(await live.text).toBe('streamed by the AI SDK')
  await session.flush()
  expect(await filesUnder(folder.dir)).toHaveLength(1)
  await server.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = streamText({ model: provider.chat('gpt-test'), prompt: 'Say it' })
  const parts: string[] = []
  for await (const part of replayed.textStream) parts.push(part)
  expect(parts.join('')).toBe('streamed by the AI SDK')
  expect(parts.length).toBeGreaterThan(1)
})

test('a stream that does not end cleanly is not recorded', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: fakeReply.text('a b c d e', { dropAfterChunks: 3 }),
  })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const consume = async () => {
    for await (const _ of await client.chat.completions.create({ ...ask('cut'), stream: true })) {
      // read it all
    }
  }
  await expect(consume()).rejects.toThrow()
  await session.flush()
  expect(await filesUnder(folder.dir)).toEqual([])
})

test('a replay-mode miss answers an OpenAI-shaped 400 at once, not retried, and the session keeps it', async () => {
  configureRubricate({ cassettes: { mode: 'replay' } })
  server = await startFakeOpenAI({ reply: 'never' })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 2 })
  const error = await withCallContext({ test: testIn('agent misses', FILE) }, () =>
    client.chat.completions.create(ask('unrecorded')).catch((e: unknown) => e),
  )
  expect(server.requests).toHaveLength(0)
  expect(error).toBeInstanceOf(OpenAI.BadRequestError)
  const miss = error as InstanceType<typeof OpenAI.BadRequestError>
  expect(miss.error).toMatchObject({ type: 'rubricate_error', code: 'RUBRICATE_CASSETTE_MISS' })
  const [record] = session.misses()
  expect(
    record?.message,
  ).toBe(`[rubricate] Cassette miss: no recorded reply matches this model call (POST ${server.baseURL}/chat/completions), and cassettes are in replay mode (set with configureRubricate), so no network call was made; the client got an HTTP 400.
  file:     ${FILE}
  test:     ${FILE} > agent misses
  endpoint: chat/completions
  model:    gpt-test
  key:      ${record?.key}
  nearest:  none: ${folder.dir}/ holds no entry for endpoint "chat/completions" and model "gpt-test"
Record it with:
  RUBRICATE_CASSETTES=auto npx vitest run ${FILE} -t "agent misses"
then commit the new files in ${folder.dir}/.
Recording calls the model live: it needs its API key (OPENAI_API_KEY for an "openai/..." model) and its real base URL (OPENAI_BASE_URL, when it is not api.openai.com).
See https://rubricate.github.io/rubricate/errors/cassette-miss`)
  expect(miss.message).toBe(`400 ${record?.message}`)
})

test('a miss without the test in the call context names the file and the only test running', async () => {
  configureRubricate({ cassettes: { mode: 'replay' } })
  const done = markTestRunning({ identity: testIn('outer > inner', FILE) })
  try {
    // Nothing listens there, and replay mode never connects. (Not port 9: fetch refuses the
    // ports the Fetch standard blocks, which msw 3 no longer intercepts before.)
    await fetch('http://127.0.0.1:65535/v1/embeddings', {
      method: 'POST',
      body: JSON.stringify({ model: 'emb', input: 'x' }),
    })
  } finally {
    done()
  }
  const message = session.misses()[0]?.message ?? ''
  expect(message).toContain(
    `  file:     ${FILE}\n  test:     outer > inner (the test running at the time)\n`,
  )
  expect(message).toContain(`  RUBRICATE_CASSETTES=auto npx vitest run ${FILE}\n`)
})

test('other requests pass untouched, and off mode records nothing', async () => {
  configureRubricate({ cassettes: { mode: 'replay' } })
  server = await startFakeOpenAI({ reply: fakeReply.raw({ status: 200, body: { ok: true } }) })
  expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ ok: true })
  expect(await (await fetch(`${server.baseURL}/files/file_1`)).json()).toEqual({ ok: true })
  expect(await (await fetch(`${server.baseURL}/models`)).json()).toEqual({ ok: true })
  configureRubricate({ cassettes: { mode: 'off' } })
  server.setReply('live')
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  expect((await client.chat.completions.create(ask('x'))).choices[0]?.message.content).toBe('live')
  expect(server.requests).toHaveLength(4)
  expect(await filesUnder(folder.dir)).toEqual([])
})

test('match patterns record other providers, such as Anthropic messages', async () => {
  configureRubricate({ cassettes: { mode: 'auto', match: ['/v1/messages'] } })
  server = await startFakeOpenAI({
    reply: fakeReply.raw({
      status: 200,
      body: { type: 'message', content: [{ type: 'text', text: 'hi' }] },
    }),
  })
  const send = () =>
    fetch(`${server?.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-ant-api03-secret-value', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-x',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    }).then((r) => r.json())
  const live = await send()
  await server.close()
  expect(await send()).toEqual(live)
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.endpoint).toBe('v1/messages')
  expect(JSON.stringify(entry)).not.toContain('sk-ant-api03-secret-value')
})

test('secrets in the environment, headers, query and body stay out of agent cassettes, and keys still match', async () => {
  process.env.OPENAI_API_KEY = 'sk-agent-0123456789abcdefXYZ'
  try {
    configureRubricate({ cassettes: { mode: 'auto' } })
    server = await startFakeOpenAI({ reply: (r) => `seen ${r.query.key}` })
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: process.env.OPENAI_API_KEY,
      defaultQuery: { key: 'query-secret-123' },
    })
    const body = ask(`my key ${process.env.OPENAI_API_KEY} and query-secret-123`)
    await client.chat.completions.create(body)
    const files = await filesUnder(folder.dir)
    const text = JSON.stringify(await entriesUnder(folder.dir))
    expect(files).toHaveLength(1)
    expect(text).not.toContain('sk-agent-0123456789abcdefXYZ')
    expect(text).not.toContain('query-secret-123')
    await server.close()
    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await client.chat.completions.create(body)
    expect(replayed.choices[0]?.message.content).toBe(`seen ${placeholderOf('query-secret-123')}`)
  } finally {
    delete process.env.OPENAI_API_KEY
  }
})

test('a corrupt cassette answers an error the session keeps, and the file is left as it was', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: 'ok' })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  await client.chat.completions.create(ask('x'))
  const { writeFile, readFile } = await import('node:fs/promises')
  const { join } = await import('node:path')
  const [file] = await filesUnder(folder.dir)
  const path = join(folder.dir, file ?? '')
  await writeFile(path, 'not json')
  const error = await client.chat.completions.create(ask('x')).catch((e: unknown) => e)
  expect(error).toMatchObject({ status: 400, error: { code: 'RUBRICATE_CASSETTE_CORRUPT' } })
  expect(session.errors()).toEqual([
    expect.objectContaining({ code: 'RUBRICATE_CASSETTE_CORRUPT', file: path }),
  ])
  expect(await readFile(path, 'utf8')).toBe('not json')
})

test('a live agent call that cannot connect fails as a connection error, and nothing is recorded', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI()
  const baseURL = server.baseURL
  await server.close()
  const client = new OpenAI({ baseURL, apiKey: 'sk-test', maxRetries: 0 })
  await expect(client.chat.completions.create(ask('anyone?'))).rejects.toBeInstanceOf(
    OpenAI.APIConnectionError,
  )
  expect(await filesUnder(folder.dir)).toEqual([])
  expect(session.errors()).toEqual([])
})
