import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { configureRubricate, createScorer } from '../../src'
import { placeholderOf } from '../../src/cassettes/redaction/secret-patterns'
import { rootCause } from '../../src/errors'
import { withCallContext } from '../../src/runtime/call-context'
import { runtimeState } from '../../src/runtime/state'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { linkedPattern } from '../support/error-page'
import { tempDir } from '../support/temp-dir'
import { entriesUnder, filesUnder, testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined
const SECRET = 'sk-proj-Zx81kQw3Lm5Np7Rt9Vb2'

afterEach(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  server = undefined
})

function scorerFor(judge: object, prompt: string) {
  return createScorer({ id: 's', description: 's', judge: { model: judge as never } })
    .generateScore(() => 1)
    .generateReason({ description: 'Explain', createPrompt: () => prompt })
}

test('a key in the environment, a header, the query string and the body is in no cassette, and the keys still match on replay', async () => {
  vi.stubEnv('OPENAI_API_KEY', SECRET)
  vi.stubEnv('MY_SERVICE_TOKEN', 'tok-9f8e7d6c5b4a')
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: (request) => `echo: ${request.headers.authorization} ${request.query.key}`,
  })
  const judge = {
    model: 'gpt-test',
    baseURL: server.baseURL,
    apiKey: SECRET,
    query: { key: 'AIzaSyQuery0123456' },
    headers: { 'x-api-key': 'header-secret-0123' },
  }
  const prompt = `Score this. My key is ${SECRET}, the token tok-9f8e7d6c5b4a, the query key AIzaSyQuery0123456.`
  const recorded = await scorerFor(judge, prompt).run({ output: 'x' })
  expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`)
  const files = await filesUnder(folder.dir)
  expect(files).toHaveLength(1)
  const text = await readFile(join(folder.dir, files[0] ?? ''), 'utf8')
  for (const secret of [SECRET, 'tok-9f8e7d6c5b4a', 'AIzaSyQuery0123456', 'header-secret-0123']) {
    expect(text).not.toContain(secret)
  }
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.body.messages.at(-1).content).toBe(
    `Score this. My key is ${placeholderOf(SECRET)}, the token ${placeholderOf('tok-9f8e7d6c5b4a')}, the query key ${placeholderOf('AIzaSyQuery0123456')}.`,
  )
  const echoed = `echo: Bearer ${placeholderOf(SECRET)} ${placeholderOf('AIzaSyQuery0123456')}`
  expect(entry.response.json.choices[0].message.content).toBe(echoed)

  await server.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await scorerFor(judge, prompt).run({ output: 'x' })
  expect(replayed.judgeCalls[0]).toMatchObject({ source: 'replayed', cassetteKey: entry.key })
  // The reply is served as it was stored: redacted.
  expect(replayed.reason).toBe(echoed)
  expect(recorded.reason).toBe(`echo: Bearer ${SECRET} AIzaSyQuery0123456`)
})

test('an entry that still holds a secret after redaction is refused with RUBRICATE_SECRET_IN_CASSETTE and not written', async () => {
  vi.stubEnv('OPENAI_API_KEY', SECRET)
  configureRubricate({
    cassettes: {
      mode: 'auto',
      redact: (entry) => {
        if (entry.response) entry.response.json.leaked = process.env.OPENAI_API_KEY
        return entry
      },
    },
  })
  server = await startFakeOpenAI({ reply: 'fine' })
  const error = rootCause(
    await rejectionOf(
      scorerFor({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }, 'Score it').run({
        output: 'x',
      }),
    ),
  ) as Error & { code: string }
  expect(error.code).toBe('RUBRICATE_SECRET_IN_CASSETTE')
  expect(error.message).toMatch(
    linkedPattern(
      /^\[rubricate\] Refused to write the cassette entry [0-9a-f]{64} \(chat\/completions\): after redaction it still holds OPENAI_API_KEY at "response\.json\.leaked"\. Nothing was written\. Built-in redaction replaces secrets in string values; this one survived \(in an object key, or it was put back by your cassettes\.redact hook\)\. Remove it in cassettes\.redact\(entry\)\.$/,
      'secret-in-cassette',
    ),
  )
  expect(await filesUnder(folder.dir)).toEqual([])
})

test('the redact hook sees the request before keying and the whole entry before writing', async () => {
  const seen: string[] = []
  configureRubricate({
    cassettes: {
      mode: 'auto',
      redact: (entry) => {
        seen.push(entry.response ? 'entry' : 'request')
        const last = entry.request.body.messages.at(-1)
        last.content = last.content.replace(/\d{4}-\d\d-\d\d/, '<date>')
        if (entry.response) entry.response.json.id = 'fixed'
        return entry
      },
    },
  })
  server = await startFakeOpenAI({ reply: { score: 1 } })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await scorerFor(judge, 'Score it as of 2026-01-01').run({ output: 'x' })
  expect(seen).toEqual(['request', 'entry'])
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.body.messages.at(-1).content).toBe('Score it as of <date>')
  expect(entry.response.json.id).toBe('fixed')
  // The key keeps a digest of what the hook replaced: the same request replays, another date
  // (a request the hook made look the same) is not served this reply (cassettes.normalize is
  // for keying volatile parts alike).
  expect(entry.request.hook).toMatch(/^[0-9a-f]{16}$/)
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await scorerFor(judge, 'Score it as of 2026-01-01').run({ output: 'x' })
  expect(replayed.judgeCalls[0]?.source).toBe('replayed')
  const other = rootCause(
    await rejectionOf(scorerFor(judge, 'Score it as of 2027-12-31').run({ output: 'x' })),
  )
  expect(other).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
})

test('a replay run and its misses work when no scratch file can be written', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: { score: 1 } })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await scorerFor(judge, 'Score it').run({ output: 'x' })
  const root = tempDir('rubricate-root-')
  await mkdir(join(root, 'node_modules'))
  await writeFile(join(root, 'node_modules', '.cache'), 'a file where a folder would go')
  runtimeState().run.root = root
  runtimeState().run.runId = 'run-1'
  configureRubricate({ cassettes: { mode: 'replay' }, maxLiveCalls: 5 })
  expect((await scorerFor(judge, 'Score it').run({ output: 'x' })).reason).toBe('{"score":1}')
  const miss = rootCause(
    await rejectionOf(
      withCallContext({ test: testIn('t') }, () => scorerFor(judge, 'Other').run({ output: 'x' })),
    ),
  )
  expect(miss).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
  expect((miss as Error).message).toContain('  differs:  messages[0].content\n')
})
