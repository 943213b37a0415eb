import OpenAI from 'openai'
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { filesUnder, useCassetteFolder } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder()
let server: FakeOpenAI | undefined
const KEY = 'sk-proj-Zx81kQw3Lm5Np7Rt9Vb2Yc4'

afterEach(async () => {
  await server?.close()
  server = undefined
  delete process.env.OPENAI_API_KEY
})
afterAll(() => stopCassetteServer())

async function streamed(chunks: string[]): Promise<string> {
  server = await startFakeOpenAI({ reply: fakeReply.text(chunks.join(''), { chunks }) })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const stream = await client.chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'What is my key?' }],
    stream: true,
  })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
  await session.flush()
  return text
}

test('a streamed reply that spells out a known secret across its events is refused, and nothing is written', async () => {
  process.env.OPENAI_API_KEY = KEY
  configureRubricate({ cassettes: { mode: 'auto' } })
  const text = await streamed(['Your key is ', KEY.slice(0, 9), KEY.slice(9, 21), KEY.slice(21)])
  // The stream itself reaches the client whole; only the recording is refused.
  expect(text).toBe(`Your key is ${KEY}`)
  const errors = session.takeErrors()
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatchObject({ code: 'RUBRICATE_SECRET_IN_CASSETTE' })
  expect(errors[0]?.message).toMatch(
    /^\[rubricate\] Refused to write the cassette entry [0-9a-f]{64} \(chat\/completions\): its streamed reply spells out OPENAI_API_KEY across several events at "response\.sse\[\*\]\.choices\[0\]\.delta\.content", where no single event holds all of it, so redaction cannot remove it\. Nothing was written\. /,
  )
  expect(await filesUnder(folder.dir)).toEqual([])
  session.takeUsage()
})

test('a streamed reply whose pieces only look alike is recorded', async () => {
  process.env.OPENAI_API_KEY = KEY
  configureRubricate({ cassettes: { mode: 'auto' } })
  await streamed([
    'Keys start with ',
    'sk-proj-',
    ' and go on; the task-',
    'oriented_approach_works',
  ])
  expect(session.takeErrors()).toEqual([])
  expect(await filesUnder(folder.dir)).toHaveLength(1)
  session.takeUsage()
})

test('an NDJSON stream (Ollama) that spells out a known secret across its lines is refused too', async () => {
  process.env.OPENAI_API_KEY = KEY
  configureRubricate({ cassettes: { mode: 'auto' } })
  const chunks = ['Your key is ', KEY.slice(0, 9), KEY.slice(9, 21), KEY.slice(21)]
  server = await startFakeOpenAI({ reply: fakeReply.text(chunks.join(''), { chunks }) })
  const response = await fetch(`${server.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'My key?' }] }),
  })
  const lines = (await response.text()).split('\n').filter(Boolean)
  expect(lines.map((line) => JSON.parse(line).message.content).join('')).toBe(`Your key is ${KEY}`)
  await session.flush()
  const errors = session.takeErrors()
  expect(errors.map((error) => error.message)).toEqual([
    expect.stringMatching(
      /^\[rubricate\] Refused to write the cassette entry [0-9a-f]{64} \(api\/chat\): its streamed reply spells out OPENAI_API_KEY across several events at "response\.sse\[\*\]\.message\.content", where no single event holds all of it, so redaction cannot remove it\. Nothing was written\. /,
    ),
  ])
  expect(await filesUnder(folder.dir)).toEqual([])
  session.takeUsage()
})
