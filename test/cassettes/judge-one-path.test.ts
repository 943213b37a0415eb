// A judge request has one path to the cassettes: the engine's exchange keys it once and serves,
// misses or records it. The SDK builds it, except in replay mode, where `replayCompletion` builds the
// same request without loading the SDK (a suite figure, openai-judge.ts). A replay finds the entry
// the SDK's request was recorded under, however the judge is set up (key, headers and query that
// hold secrets, base URLs with a path or a trailing slash), and never reaches the server.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { judgeFetch } from '../../src/judge/cassette-bridge'
import { completionReply } from '../../src/judge/endpoint-replies'
import { completeWithEndpoint, replayCompletion } from '../../src/judge/openai-judge'
import type { OpenAICompatibleJudge } from '../../src/records/records'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function complete(judge: OpenAICompatibleJudge, prompt: string) {
  let requests = 0
  const reply = await completeWithEndpoint(
    judge,
    { system: 'You grade.', prompt, temperature: 0 },
    new AbortController().signal,
    () => {
      requests++
    },
  )
  return { reply, requests }
}

const setups: [string, (url: string) => OpenAICompatibleJudge, string][] = [
  [
    'an API key that the prompt quotes',
    (url) => ({ model: 'gpt-test', baseURL: `${url}/v1`, apiKey: 'key-0123456789' }),
    'Grade the reply that leaked key-0123456789.',
  ],
  ['no API key at all', (url) => ({ model: 'gpt-test', baseURL: `${url}/v1` }), 'Grade it.'],
  [
    'a path prefix and a trailing slash',
    (url) => ({ model: 'gpt-test', baseURL: `${url}/api/v1/`, apiKey: 'key-0123456789' }),
    'Grade it.',
  ],
  [
    'a secret header that the prompt quotes',
    (url) => ({
      model: 'gpt-test',
      baseURL: `${url}/v1`,
      apiKey: 'key-0123456789',
      headers: { 'x-api-key': 'hdr-secret-42' },
    }),
    'Grade the reply that leaked hdr-secret-42.',
  ],
  [
    'an Azure deployment with a secret query parameter that the prompt quotes',
    (url) => ({
      model: 'judge',
      baseURL: `${url}/openai/deployments/judge`,
      query: { 'api-version': '2024-10-21', key: 'qry-secret-42' },
    }),
    'Grade the reply that leaked qry-secret-42.',
  ],
  [
    "Gemini's OpenAI-compatible path and a Google key",
    (url) => ({
      model: 'gemini-2.5-flash',
      baseURL: `${url}/v1beta/openai/`,
      apiKey: 'AIzaSyJudgeKey0123456789abcdefghijklm',
    }),
    'Grade it.',
  ],
]

test.each(setups)(
  'with %s, a recorded judge request replays without reaching the server',
  async (_, judgeAt, prompt) => {
    server = await startFakeOpenAI({ reply: '{"score":1}' })
    const judge = judgeAt(server.url)
    configureRubricate({ cassettes: { mode: 'record' } })
    const recorded = await complete(judge, prompt)
    expect(recorded.requests).toBe(1)
    expect(server.requests).toHaveLength(1)

    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await complete(judge, prompt)
    expect(replayed.reply).toEqual(recorded.reply)
    expect(server.requests).toHaveLength(1)
  },
)

test('in auto mode a hit is served the same way, and a miss goes live through the SDK', async () => {
  server = await startFakeOpenAI({ reply: '{"score":1}' })
  const judge = { model: 'gpt-test', baseURL: `${server.url}/v1`, apiKey: 'key-0123456789' }
  configureRubricate({ cassettes: { mode: 'auto' } })
  await complete(judge, 'Grade it.')
  expect(server.requests).toHaveLength(1)
  await complete(judge, 'Grade it.')
  expect(server.requests).toHaveLength(1)
  await complete(judge, 'Grade this other one.')
  expect(server.requests).toHaveLength(2)
})

test('a secret set in the environment a moment before a lookup is redacted before it is keyed', async () => {
  server = await startFakeOpenAI({ reply: '{"score":1}' })
  const judge = { model: 'gpt-test', baseURL: `${server.url}/v1`, apiKey: 'key-0123456789' }
  const prompt = 'Grade the reply that leaked tok-Secret-4242.'
  try {
    process.env.RUBRICATE_TEST_TOKEN = 'tok-Secret-4242'
    configureRubricate({ cassettes: { mode: 'record' } })
    const recorded = await complete(judge, prompt)
    // A recording reads the environment afresh: the secrets last read no longer hold the token.
    delete process.env.RUBRICATE_TEST_TOKEN
    await complete(judge, 'Grade another reply.')
    expect(server.requests).toHaveLength(2)
    // Set again: the environment is read afresh when the request is prepared, so the token is
    // redacted before the lookup.
    process.env.RUBRICATE_TEST_TOKEN = 'tok-Secret-4242'
    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await complete(judge, prompt)
    expect(replayed.reply).toEqual(recorded.reply)
    expect(server.requests).toHaveLength(2)
  } finally {
    delete process.env.RUBRICATE_TEST_TOKEN
  }
})

test.each([
  ['a base URL with a path', '/v1', undefined],
  ['a trailing slash and headers of its own', '/api/v1/', { 'x-api-key': 'hdr-secret-42' }],
])('with %s, the replay-mode request is the request the SDK sends', async (_, path, headers) => {
  server = await startFakeOpenAI({ reply: '{"score":1}' })
  const judge = {
    model: 'gpt-test',
    baseURL: `${server.url}${path}`,
    apiKey: 'key-0123456789',
    ...(headers && { headers }),
  }
  configureRubricate({ cassettes: { mode: 'off' } })
  const sdk = await complete(judge, 'Grade it.')
  const [sent] = server.requests
  // Sent live (mode off) to compare: what the cassettes see of a request is its method, URL,
  // body and the headers that carry secrets.
  const completion = await replayCompletion(
    judge.baseURL,
    judge.apiKey,
    headers,
    sent?.body,
    new AbortController().signal,
  )
  const own = server.requests[1]
  expect(own).toMatchObject({
    method: sent?.method,
    path: sent?.path,
    query: sent?.query,
    bodyText: sent?.bodyText,
  })
  for (const name of ['authorization', 'content-type', 'accept', ...Object.keys(headers ?? {})])
    expect(own?.headers[name]).toBe(sent?.headers[name])
  expect(completionReply(completion)).toEqual(sdk.reply)
})

test('a replayed error reply fails as the same reply sent live through the SDK', async () => {
  const reply = () =>
    fakeReply.raw({ status: 400, body: { error: { message: 'model not found' } } })
  server = await startFakeOpenAI({ reply: [reply(), reply()] })
  const judge = { model: 'gpt-test', baseURL: `${server.url}/v1`, apiKey: 'key-0123456789' }
  configureRubricate({ cassettes: { mode: 'off' } })
  const live = await complete(judge, 'Grade it.').catch((error: unknown) => error)
  configureRubricate({ cassettes: { mode: 'record' } })
  await complete(judge, 'Grade it.').catch(() => undefined)
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await complete(judge, 'Grade it.').catch((error: unknown) => error)
  expect(server.requests).toHaveLength(2)
  expect(replayed).toBeInstanceOf(Error)
  expect(replayed).toMatchObject({
    name: (live as Error).name,
    code: (live as { code?: unknown }).code,
    status: 400,
    message: (live as Error).message,
  })
})

test('a judge request to a path that a string pattern names after a ":" is keyed by its path, recorded, replayed, and in replay mode an unrecorded one is a miss, never live', async () => {
  // A judge transport that posts to a Gemini-style path (the model in the path, the method after a
  // ":"): the string pattern must match it as it does for the agents' calls.
  const paths: string[] = []
  const grader = createServer((request, response) => {
    paths.push(request.url ?? '')
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ score: request.url?.includes('judge-a') ? 1 : 0 }))
    })
  })
  await new Promise<void>((resolve) => grader.listen(0, '127.0.0.1', resolve))
  const { port } = grader.address() as AddressInfo
  const post = (model: string) =>
    judgeFetch()(`http://127.0.0.1:${port}/v1/tuned/${model}:grade`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Grade it.' }] }),
    })
  try {
    configureRubricate({ cassettes: { mode: 'record', match: [':grade'] } })
    expect(await (await post('judge-a')).json()).toEqual({ score: 1 })
    expect(await (await post('judge-b')).json()).toEqual({ score: 0 })
    expect(paths).toHaveLength(2)
    const endpoints = (await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint)
    // A pattern's key holds the host (not the port, which changes every run).
    expect(endpoints.sort()).toEqual([
      '127.0.0.1/v1/tuned/judge-a:grade',
      '127.0.0.1/v1/tuned/judge-b:grade',
    ])

    configureRubricate({ cassettes: { mode: 'replay', match: [':grade'] } })
    expect(await (await post('judge-b')).json()).toEqual({ score: 0 })
    expect(await (await post('judge-a')).json()).toEqual({ score: 1 })
    await expect(post('judge-c')).rejects.toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
    expect(paths).toHaveLength(2)
  } finally {
    await new Promise((resolve) => grader.close(resolve))
  }
})
