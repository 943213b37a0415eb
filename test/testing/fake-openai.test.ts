import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  fakeReply,
  startFakeOpenAI,
} from '../../src/testing'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(
  options: FakeOpenAIOptions = {},
): Promise<{ server: FakeOpenAI; client: OpenAI }> {
  server = await startFakeOpenAI(options)
  return {
    server,
    client: new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test-key', maxRetries: 0 }),
  }
}

const ask = (content: string) => ({
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content }],
})

test('listens on 127.0.0.1 with a random port and answers a chat completion through the SDK', async () => {
  const { server, client } = await start({ reply: 'Hello there' })
  expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  const completion = await client.chat.completions.create(ask('hi'))
  expect(completion.choices[0]?.message.content).toBe('Hello there')
  expect(completion.model).toBe('gpt-test')
  expect(completion.usage?.completion_tokens).toBeGreaterThan(0)
  expect(completion.usage?.total_tokens).toBe(
    (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
  )
})

test('answers from a function of the request and logs every request', async () => {
  const { server, client } = await start({
    reply: (request) => `You said: ${request.body.messages.at(-1).content}`,
  })
  const completion = await client.chat.completions.create(ask('refund please'))
  expect(completion.choices[0]?.message.content).toBe('You said: refund please')
  expect(server.requests).toHaveLength(1)
  const [logged] = server.requests
  expect(logged).toMatchObject({
    index: 0,
    method: 'POST',
    path: '/v1/chat/completions',
    stream: false,
  })
  expect(logged?.headers.authorization).toBe('Bearer sk-test-key')
  expect(logged?.body).toEqual(ask('refund please'))
  expect(JSON.parse(logged?.bodyText ?? '')).toEqual(ask('refund please'))
  server.clearRequests()
  expect(server.requests).toHaveLength(0)
})

test('a plain object reply becomes the assistant message as JSON, as a judge would answer', async () => {
  const { client } = await start({
    reply: { criteria: { c1: { reasoning: 'ok', satisfied: true } } },
  })
  const completion = await client.chat.completions.create(ask('judge this'))
  expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({
    criteria: { c1: { reasoning: 'ok', satisfied: true } },
  })
})

test('streams a reply chunk by chunk when the request asks for a stream, usage included on request', async () => {
  const { server, client } = await start({
    reply: fakeReply.text('one two three', { chunks: ['one ', 'two ', 'three'] }),
  })
  const stream = await client.chat.completions.create({
    ...ask('count'),
    stream: true,
    stream_options: { include_usage: true },
  })
  const pieces: string[] = []
  let usage: unknown
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta.content
    if (piece) pieces.push(piece)
    if (chunk.usage) usage = chunk.usage
  }
  expect(pieces).toEqual(['one ', 'two ', 'three'])
  expect(usage).toMatchObject({ completion_tokens: expect.any(Number) })
  expect(server.requests[0]?.stream).toBe(true)
})

test('a slow stream spaces its chunks by chunkDelayMs', async () => {
  const { client } = await start({ reply: fakeReply.text('a b c', { chunkDelayMs: 40 }) })
  const stream = await client.chat.completions.create({ ...ask('slow'), stream: true })
  const arrivals: number[] = []
  for await (const chunk of stream)
    if (chunk.choices[0]?.delta.content) arrivals.push(performance.now())
  expect(arrivals).toHaveLength(3)
  // Lower bounds only: a busy machine can make gaps longer, never shorter.
  expect((arrivals[2] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(60)
})

test('a stream cut after some chunks fails the reader instead of ending cleanly', async () => {
  const { client } = await start({ reply: fakeReply.text('a b c d e', { dropAfterChunks: 2 }) })
  const stream = await client.chat.completions.create({ ...ask('cut'), stream: true })
  const read = async () => {
    for await (const _ of stream) {
      // drain
    }
  }
  await expect(read()).rejects.toThrow()
})

test('a plain reply with chunkDelayMs sends its body slowly after the headers', async () => {
  const content = 'x'.repeat(300)
  const { server } = await start({ reply: fakeReply.text(content, { chunkDelayMs: 30 }) })
  const started = performance.now()
  const response = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify(ask('slow body')),
  })
  const body = await response.json()
  expect(body.choices[0].message.content).toBe(content)
  // The body is at least 6 pieces of 64 bytes, each after a 30 ms pause; lower bound only.
  expect(performance.now() - started).toBeGreaterThanOrEqual(150)
})

test('a plain reply cut after some pieces fails the reader instead of giving a short body', async () => {
  const { client } = await start({ reply: fakeReply.text('y'.repeat(300), { dropAfterChunks: 2 }) })
  await expect(client.chat.completions.create(ask('cut body'))).rejects.toThrow()
})

test('an error status carries Retry-After, and the SDK retries after it', async () => {
  server = await startFakeOpenAI({
    reply: [fakeReply.status(429, { retryAfter: 0 }), 'after retry'],
  })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 1 })
  const completion = await client.chat.completions.create(ask('busy?'))
  expect(completion.choices[0]?.message.content).toBe('after retry')
  expect(server.requests).toHaveLength(2)
})

test('an error status reaches the SDK with its status and message', async () => {
  const { client } = await start({
    reply: fakeReply.status(400, { message: 'temperature is not supported' }),
  })
  const error = await client.chat.completions.create(ask('x')).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(OpenAI.APIError)
  expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400)
  expect((error as Error).message).toContain('temperature is not supported')
})

test('a 429 header can be read by any client', async () => {
  const { server } = await start({ reply: fakeReply.status(429, { retryAfter: 7 }) })
  const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' })
  expect(response.status).toBe(429)
  expect(response.headers.get('retry-after')).toBe('7')
})

test('a malformed JSON body makes the SDK fail to parse the reply', async () => {
  const { client } = await start({ reply: fakeReply.malformed() })
  await expect(client.chat.completions.create(ask('x'))).rejects.toThrow()
})

test('a dropped connection is a connection error', async () => {
  const { client } = await start({ reply: fakeReply.drop() })
  await expect(client.chat.completions.create(ask('x'))).rejects.toBeInstanceOf(
    OpenAI.APIConnectionError,
  )
})

test('a reply that never comes is cut by the client timeout, and close() still returns', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.hang() })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeout: 200 })
  await expect(client.chat.completions.create(ask('x'))).rejects.toBeInstanceOf(
    OpenAI.APIConnectionTimeoutError,
  )
  await server.close()
})

test('delay() and latencyMs hold the reply back', async () => {
  const { client } = await start({ reply: fakeReply.delay(80, 'late'), latencyMs: 20 })
  const started = performance.now()
  const completion = await client.chat.completions.create(ask('x'))
  expect(completion.choices[0]?.message.content).toBe('late')
  expect(performance.now() - started).toBeGreaterThanOrEqual(95)
})

test('a reply list answers in order and says so when it runs out', async () => {
  const { client } = await start({ reply: ['first', 'second'] })
  expect((await client.chat.completions.create(ask('1'))).choices[0]?.message.content).toBe('first')
  expect((await client.chat.completions.create(ask('2'))).choices[0]?.message.content).toBe(
    'second',
  )
  await expect(client.chat.completions.create(ask('3'))).rejects.toThrow(
    '[rubricate] startFakeOpenAI() got request #3, but its reply list has only 2 entries. Add replies to the list, or pass a function as `reply`.',
  )
})

test('setReply changes the answer for the requests that follow', async () => {
  const { server, client } = await start({ reply: 'before' })
  server.setReply('after')
  expect((await client.chat.completions.create(ask('x'))).choices[0]?.message.content).toBe('after')
})

test('a gzip-compressed reply is decoded by the client', async () => {
  const { client } = await start({ reply: fakeReply.text('zipped', { gzip: true }) })
  expect((await client.chat.completions.create(ask('x'))).choices[0]?.message.content).toBe(
    'zipped',
  )
})

test('tool calls are returned in the message', async () => {
  const { client } = await start({
    reply: fakeReply.text('', { toolCalls: [{ name: 'lookup_order', arguments: '{"id":"A1"}' }] }),
  })
  const message = (await client.chat.completions.create(ask('x'))).choices[0]?.message
  expect(message?.tool_calls?.[0]).toMatchObject({
    type: 'function',
    function: { name: 'lookup_order', arguments: '{"id":"A1"}' },
  })
})

test('speaks the Responses API, plain and streamed', async () => {
  const { client } = await start({ reply: 'from responses' })
  const response = await client.responses.create({ model: 'gpt-test', input: 'hi' })
  expect(response.output_text).toBe('from responses')
  const stream = await client.responses.create({ model: 'gpt-test', input: 'hi', stream: true })
  let text = ''
  for await (const event of stream)
    if (event.type === 'response.output_text.delta') text += event.delta
  expect(text).toBe('from responses')
})

test('returns function_call items on the Responses API when the reply has tool calls, plain and streamed', async () => {
  const reply = fakeReply.text('', {
    toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: '{"id":"A1"}' }],
  })
  const { client } = await start({ reply })
  const response = await client.responses.create({ model: 'gpt-test', input: 'where is A1?' })
  expect(response.output).toEqual([
    {
      id: 'fc_fake-0_0',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_1',
      name: 'lookup_order',
      arguments: '{"id":"A1"}',
    },
  ])
  const stream = await client.responses.create({ model: 'gpt-test', input: 'x', stream: true })
  const events: { type: string; item?: unknown }[] = []
  for await (const event of stream) events.push(event)
  expect(events.map((event) => event.type)).toEqual([
    'response.created',
    'response.output_item.added',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.done',
    'response.output_item.done',
    'response.completed',
  ])
  expect(events[4]?.item).toMatchObject({ type: 'function_call', name: 'lookup_order' })
})

test('returns text and function calls together on the Responses API', async () => {
  const reply = fakeReply.text('Looking it up.', {
    toolCalls: [{ name: 'lookup_order', arguments: '{}' }],
  })
  const { client } = await start({ reply })
  const response = await client.responses.create({ model: 'gpt-test', input: 'x' })
  expect(response.output.map((item) => item.type)).toEqual(['message', 'function_call'])
  expect(response.output_text).toBe('Looking it up.')
})

test('fakeReply.embedding gives near-identical sentences a cosine similarity above 0.8, in base64 too', async () => {
  const { client } = await start({ reply: fakeReply.embedding() })
  const input = [
    'The refund arrives in 5 days.',
    'The refund arrives within 5 days.',
    'Our office is closed on Sundays.',
  ]
  const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0)
  // The SDK asks for base64 by default and decodes it; `float` sends plain arrays.
  for (const format of [{}, { encoding_format: 'float' as const }]) {
    const { data } = await client.embeddings.create({ model: 'embed', input, ...format })
    const [a, b, c] = data.map((item) => item.embedding) as [number[], number[], number[]]
    expect(a).toHaveLength(256)
    expect(cosine(a, b)).toBeGreaterThan(0.8)
    expect(cosine(a, c)).toBeLessThan(0.3)
  }
  expect(server?.requests[0]?.body.encoding_format).toBe('base64')
})

test('fakeReply.embedding honours dimensions and returns given vectors as they are', async () => {
  const { client } = await start({ reply: fakeReply.embedding() })
  const sized = await client.embeddings.create({ model: 'e', input: 'hi', dimensions: 16 })
  expect(sized.data[0]?.embedding).toHaveLength(16)
  server?.setReply(fakeReply.embedding({ vectors: [[0.5, 0.25]] }))
  const given = await client.embeddings.create({ model: 'e', input: ['a', 'b'] })
  expect(given.data.map((item) => item.embedding)).toEqual([
    [0.5, 0.25],
    [0.5, 0.25],
  ])
})

test('fakeReply.embedding on another endpoint answers 404 saying only /embeddings has vectors', async () => {
  const { client } = await start({ reply: fakeReply.embedding() })
  await expect(client.chat.completions.create(ask('x'))).rejects.toMatchObject({
    status: 404,
    message: expect.stringContaining(
      '[rubricate] The fake OpenAI server was given fakeReply.embedding() for a request to "/v1/chat/completions", but only /embeddings answers with vectors.',
    ),
  })
})

test('answers embeddings with deterministic vectors', async () => {
  const { client } = await start()
  const first = await client.embeddings.create({ model: 'embed-test', input: ['alpha', 'beta'] })
  const again = await client.embeddings.create({ model: 'embed-test', input: ['alpha', 'beta'] })
  expect(first.data).toHaveLength(2)
  expect(first.data[0]?.embedding).toEqual(again.data[0]?.embedding)
  expect(first.data[0]?.embedding).not.toEqual(first.data[1]?.embedding)
})

test('speaks the legacy Completions API, plain and streamed', async () => {
  const { client } = await start({ reply: 'once upon a time' })
  const completion = await client.completions.create({ model: 'gpt-test', prompt: 'Tell me' })
  expect(completion).toMatchObject({
    object: 'text_completion',
    model: 'gpt-test',
    choices: [{ index: 0, text: 'once upon a time', finish_reason: 'stop' }],
  })
  const stream = await client.completions.create({
    model: 'gpt-test',
    prompt: 'Tell me',
    stream: true,
  })
  const pieces: string[] = []
  for await (const chunk of stream) pieces.push(chunk.choices[0]?.text ?? '')
  expect(pieces.join('')).toBe('once upon a time')
  expect(pieces.filter(Boolean)).toEqual(['once ', 'upon ', 'a ', 'time'])
})

test("speaks Ollama's /api/chat: NDJSON lines by default, one JSON object with stream false", async () => {
  const { server } = await start({ reply: 'hi from llama' })
  const chat = (extra: object) =>
    fetch(`${server.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'llama3.2',
        messages: [{ role: 'user', content: 'hi' }],
        ...extra,
      }),
    })
  const streamed = await chat({})
  expect(streamed.headers.get('content-type')).toBe('application/x-ndjson')
  const lines = (await streamed.text()).split('\n')
  expect(lines.pop()).toBe('')
  const objects = lines.map((line) => JSON.parse(line))
  expect(objects.map((o) => o.message.content)).toEqual(['hi ', 'from ', 'llama', ''])
  expect(objects.map((o) => o.done)).toEqual([false, false, false, true])
  expect(objects.at(-1)).toMatchObject({
    model: 'llama3.2',
    created_at: '2025-11-24T16:00:00.000Z',
    done_reason: 'stop',
    prompt_eval_count: expect.any(Number),
    eval_count: expect.any(Number),
  })
  const whole = await chat({ stream: false })
  expect(whole.headers.get('content-type')).toBe('application/json')
  expect(await whole.json()).toMatchObject({
    model: 'llama3.2',
    message: { role: 'assistant', content: 'hi from llama' },
    done: true,
  })
  expect(server.requests.map((r) => r.stream)).toEqual([true, false])
})

test('an NDJSON stream can be slow or cut like an SSE stream', async () => {
  const { server } = await start({ reply: fakeReply.text('a b c', { chunkDelayMs: 40 }) })
  const body = JSON.stringify({ model: 'llama3.2', messages: [] })
  const started = performance.now()
  const slow = await fetch(`${server.url}/api/chat`, { method: 'POST', body })
  expect((await slow.text()).split('\n')).toHaveLength(5)
  // Four lines, each after a 40 ms pause; lower bound only.
  expect(performance.now() - started).toBeGreaterThanOrEqual(120)
  server.setReply(fakeReply.text('a b c', { dropAfterChunks: 2 }))
  const cut = await fetch(`${server.url}/api/chat`, { method: 'POST', body })
  await expect(cut.text()).rejects.toThrow('terminated')
})

test('an unknown path gets a 404 that says how to answer it', async () => {
  const { server } = await start()
  const response = await fetch(`${server.url}/v1/audio/speech`, { method: 'POST', body: '{}' })
  expect(response.status).toBe(404)
  expect(await response.text()).toContain('fakeReply.raw')
})

test('a throwing reply function answers 500 with its message', async () => {
  const { server } = await start({
    reply: () => {
      throw new Error('script bug')
    },
  })
  const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' })
  expect(response.status).toBe(500)
  expect(await response.text()).toContain('script bug')
})
