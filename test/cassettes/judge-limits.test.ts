import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { configureRubricate, createScorer } from '../../src'
import { rootCause } from '../../src/errors'
import { runAsTest } from '../../src/runtime/call-context'
import { runtimeState } from '../../src/runtime/state'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { linked } from '../support/error-page'
import { tempDir } from '../support/temp-dir'
import { entriesUnder, filesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined
let root = ''

beforeEach(async () => {
  root = tempDir('rubricate-root-')
  await mkdir(join(root, 'node_modules'))
  runtimeState().run.root = root
})

afterEach(async () => {
  vi.restoreAllMocks()
  await server?.close()
  server = undefined
})

function ask(judge: object, prompt: string) {
  return createScorer({ id: 's', description: 's', judge: { model: judge as never } })
    .generateScore(() => 1)
    .generateReason({ description: 'Explain', createPrompt: () => prompt })
    .run({ output: 'x' })
}

test('maxLiveCalls stops the live call past the limit with RUBRICATE_LIMIT; replayed calls do not count', async () => {
  runtimeState().run.runId = 'run-limit'
  configureRubricate({ cassettes: { mode: 'auto' }, maxLiveCalls: 2 })
  server = await startFakeOpenAI({ reply: 'ok' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await ask(judge, 'one')
  await ask(judge, 'two')
  await ask(judge, 'one')
  const error = rootCause(await rejectionOf(ask(judge, 'three')))
  expect(error).toMatchObject({
    code: 'RUBRICATE_LIMIT',
    message: linked(
      '[rubricate] Stopped a live judge call: this run has already made 2 live judge calls, the limit set by maxLiveCalls (2). Raise maxLiveCalls (configureRubricate or the plugin options) if the run is meant to be that large, or replay from cassettes with RUBRICATE_CASSETTES=replay.',
      'limit',
    ),
  })
  expect(server.requests).toHaveLength(2)
  // The counts live in the scratch folder of the run, never beside the cassettes.
  const scratch = join(root, 'node_modules/.cache/rubricate/run-limit')
  expect((await readdir(scratch)).every((name) => /^live-\d+-\d+\.log$/.test(name))).toBe(true)
  expect((await filesUnder(folder.dir)).every((file) => file.endsWith('.json'))).toBe(true)
})

test('maxLiveCalls counts the live calls of every worker of the run', async () => {
  runtimeState().run.runId = 'run-shared'
  const scratch = join(root, 'node_modules/.cache/rubricate/run-shared')
  await mkdir(scratch, { recursive: true })
  await writeFile(join(scratch, 'live-99999-1.log'), 'call\ncall\ncall\n')
  configureRubricate({ cassettes: { mode: 'off' }, maxLiveCalls: 4 })
  server = await startFakeOpenAI({ reply: 'ok' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await ask(judge, 'one')
  expect(rootCause(await rejectionOf(ask(judge, 'two')))).toMatchObject({ code: 'RUBRICATE_LIMIT' })
  expect(server.requests).toHaveLength(1)
})

test('maxCost stops live calls once their estimated cost reaches it', async () => {
  configureRubricate({ cassettes: { mode: 'off' }, maxCost: 0.5 })
  server = await startFakeOpenAI({
    reply: fakeReply.text('ok', { usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } }),
  })
  const judge = { model: 'gpt-4.1-mini', baseURL: server.baseURL, apiKey: 'k' }
  await ask(judge, 'one')
  await ask(judge, 'two')
  const error = rootCause(await rejectionOf(ask(judge, 'three')))
  expect(error).toMatchObject({
    code: 'RUBRICATE_LIMIT',
    message: linked(
      '[rubricate] Stopped a live judge call: live judge calls in this run are estimated at $0.8000, which reaches maxCost ($0.5). Raise maxCost (configureRubricate or the plugin options) if the run is meant to cost that much, or replay from cassettes with RUBRICATE_CASSETTES=replay.',
      'limit',
    ),
  })
  expect(server.requests).toHaveLength(2)
})

test('judgeConcurrency bounds the live judge calls in flight in a worker', async () => {
  configureRubricate({ cassettes: { mode: 'auto' }, judgeConcurrency: 2 })
  let active = 0
  let most = 0
  server = await startFakeOpenAI({
    reply: async () => {
      active++
      most = Math.max(most, active)
      await sleep(40)
      active--
      return 'ok'
    },
  })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await Promise.all(Array.from({ length: 8 }, (_, i) => ask(judge, `prompt ${i}`)))
  expect(server.requests).toHaveLength(8)
  expect(most).toBe(2)
})

test('identical judge calls made at once in one test are each recorded, and replay each its own reply', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  let n = 0
  server = await startFakeOpenAI({ reply: () => fakeReply.delay(30, `reply ${++n}`) })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const identity = { file: join(root, 'a.test.ts'), name: 'asks three times' }
  const askThrice = () =>
    runAsTest({ identity }, undefined, () =>
      Promise.all(Array.from({ length: 3 }, () => ask(judge, 'same'))),
    )
  const recorded = await askThrice()
  expect(server.requests).toHaveLength(3)
  expect(recorded.map((r) => r.judgeCalls[0]?.source)).toEqual(['recorded', 'recorded', 'recorded'])
  expect(await entriesUnder(folder.dir)).toHaveLength(3)
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await askThrice()
  expect(server.requests).toHaveLength(3)
  const replies = (runs: typeof recorded) => runs.map((r) => r.judgeCalls[0]?.cassetteKey).sort()
  expect(replies(replayed)).toEqual(replies(recorded))
  expect(new Set(replies(replayed)).size).toBe(3)
  // A fourth identical request was never recorded: a miss, not the third reply again.
  const fourth = await runAsTest({ identity }, undefined, () =>
    Promise.allSettled(Array.from({ length: 4 }, () => ask(judge, 'same'))),
  )
  expect(fourth.filter((r) => r.status === 'rejected')).toHaveLength(1)
})

test('maxAge warns once about a replayed entry recorded longer ago', async () => {
  configureRubricate({ cassettes: { mode: 'auto', maxAge: '30d' } })
  server = await startFakeOpenAI({ reply: 'ok' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await ask(judge, 'old one')
  const [file] = await filesUnder(folder.dir)
  const path = join(folder.dir, file ?? '')
  const [entry] = await entriesUnder(folder.dir)
  const old = new Date(Date.now() - 45 * 86_400_000).toISOString()
  await writeFile(path, (await readFile(path, 'utf8')).replace(entry.recordedAt, old))
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  await ask(judge, 'old one')
  await ask(judge, 'old one')
  expect(warn.mock.calls).toEqual([
    [
      `[rubricate] The cassette entry "${path}" was recorded 45 days ago, longer ago than maxAge ("30d"). Its reply may no longer match the model; re-record it with RUBRICATE_CASSETTES=record.`,
    ],
  ])
})

test('an entry older than a maxAge of hours is said to be hours old, not 0 days', async () => {
  configureRubricate({ cassettes: { mode: 'auto', maxAge: '2h' } })
  server = await startFakeOpenAI({ reply: 'ok' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  await ask(judge, 'hours old')
  const [file] = await filesUnder(folder.dir)
  const path = join(folder.dir, file ?? '')
  const [entry] = await entriesUnder(folder.dir)
  const old = new Date(Date.now() - 3.5 * 3_600_000).toISOString()
  await writeFile(path, (await readFile(path, 'utf8')).replace(entry.recordedAt, old))
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  await ask(judge, 'hours old')
  expect(warn.mock.calls).toEqual([
    [
      `[rubricate] The cassette entry "${path}" was recorded 3 hours ago, longer ago than maxAge ("2h"). Its reply may no longer match the model; re-record it with RUBRICATE_CASSETTES=record.`,
    ],
  ])
})

test('an invalid maxAge is a usage error naming the accepted forms', () => {
  expect(() => configureRubricate({ cassettes: { maxAge: '30 days' } })).toThrowError(
    '[rubricate] cassettes.maxAge is "30 days", which is not a duration. Use milliseconds, or a number with a unit: "30d", "12h", "15m", "2w".',
  )
})
