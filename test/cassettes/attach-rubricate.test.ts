import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate, createScorer } from '../../src'
import { attachRubricate } from '../../src/cassettes'
import { listenOptions } from '../../src/cassettes/agents/msw-compat'
import { currentRuntime } from '../../src/runtime/runtime'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder, listen, useCassetteFolder } from './support'

// A user's own msw server, strict about anything it does not handle.
const unhandled: string[] = []
const server = setupServer(
  http.post('http://mocked.example/v1/chat/completions', () =>
    HttpResponse.json({
      id: 'mock',
      object: 'chat.completion',
      created: 0,
      model: 'mocked',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'from my mock' },
          finish_reason: 'stop',
        },
      ],
    }),
  ),
)
attachRubricate(server)
// `onUnhandledRequest` on msw 2, `onUnhandledFrame` on msw 3: the options give both.
listen(
  server,
  listenOptions((request, print) => {
    unhandled.push(`${request.method} ${request.url}`)
    print.error()
  }),
)

const folder = useCassetteFolder()
let fake: FakeOpenAI | undefined

afterEach(async () => {
  server.resetHandlers()
  await currentRuntime().session.flush()
  await fake?.close()
  fake = undefined
  unhandled.length = 0
})
afterAll(() => server.close())

const ask = (content: string) => ({
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content }],
})

test("agent calls are recorded through the user's server, whose own mocks still win", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  fake = await startFakeOpenAI({ reply: 'real model' })
  const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test' })
  expect((await client.chat.completions.create(ask('hi'))).choices[0]?.message.content).toBe(
    'real model',
  )
  const mocked = new OpenAI({ baseURL: 'http://mocked.example/v1', apiKey: 'sk-test' })
  expect((await mocked.chat.completions.create(ask('hi'))).choices[0]?.message.content).toBe(
    'from my mock',
  )
  expect(
    (await entriesUnder(folder.dir)).map((e) => e.response.json.choices[0].message.content),
  ).toEqual(['real model'])
  expect(unhandled).toEqual([])
})

test("rubricate's handlers survive resetHandlers, with or without new handlers", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  fake = await startFakeOpenAI({ reply: 'recorded' })
  const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test' })
  server.resetHandlers(http.get('http://mocked.example/ping', () => HttpResponse.text('pong')))
  await client.chat.completions.create(ask('after reset with handlers'))
  server.resetHandlers()
  await client.chat.completions.create(ask('after plain reset'))
  expect(await filesUnder(folder.dir)).toHaveLength(2)
  attachRubricate(server)
  await fake.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(
    (await client.chat.completions.create(ask('after plain reset'))).choices[0]?.message.content,
  ).toBe('recorded')
})

test("the judge's live calls go out past the user's server: its mocks and onUnhandledRequest never see them", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server.use(
    http.post('*/chat/completions', () =>
      HttpResponse.json({ error: { message: 'user mock' } }, { status: 500 }),
    ),
  )
  fake = await startFakeOpenAI({ reply: { score: 0.5 } })
  const result = await createScorer({
    id: 's',
    description: 's',
    judge: { model: { model: 'gpt-test', baseURL: fake.baseURL, apiKey: 'sk-test' } },
  })
    .generateScore({ description: 's', createPrompt: () => 'Score it' })
    .run({ output: 'x' })
  expect(result.score).toBe(0.5)
  expect(result.judgeCalls[0]?.source).toBe('recorded')
  expect(fake.requests).toHaveLength(1)
  // msw strips its passthrough marker before the request leaves.
  expect(fake.requests[0]?.headers.accept).toBe('application/json')
  expect(unhandled).toEqual([])
})

test("other unhandled requests still reach the user's onUnhandledRequest", async () => {
  fake = await startFakeOpenAI({ reply: fakeReply.raw({ body: { ok: 1 } }) })
  await fetch(`${fake.url}/not-a-model-call`).catch(() => undefined)
  expect(unhandled).toEqual([`GET ${fake.url}/not-a-model-call`])
})
