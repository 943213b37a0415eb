// End to end: Vitest runs the cassettes-agents fixture in child processes, with rubricate's msw
// server started by its setup file, against a fake OpenAI server of this process.

import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { entriesUnder, filesUnder } from './support'

let fake: FakeOpenAI | undefined
// The fixture has eight worker files (the reliability suite's load test runs all of them).
const WORKERS = ['worker-a', 'worker-b', 'worker-c', 'worker-d']

afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function setUp() {
  fake = await startFakeOpenAI({ reply: (r) => `You said: ${r.body.messages.at(-1).content}` })
  const work = tempDir('rubricate-agents-')
  const env = (mode: string) => ({
    FIXTURE_BASE_URL: fake?.baseURL,
    FIXTURE_CASSETTES: join(work, 'cassettes'),
    FIXTURE_MODE: mode,
  })
  return { dir: join(work, 'cassettes'), work, env }
}

test('a client built at module scope of a test file is recorded, then replayed with no server', async () => {
  const { dir, env } = await setUp()
  const recorded = await runVitest('cassettes-agents', ['module-scope'], { env: env('auto') })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(fake?.requests).toHaveLength(1)
  const [entry] = await entriesUnder(dir)
  expect(entry.recordedBy).toBe(
    'module-scope.test.ts > a client built at module scope is recorded and replayed',
  )
  await fake?.close()
  const replayed = await runVitest('cassettes-agents', ['module-scope'], { env: env('replay') })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
}, 120_000)

test('four processes recording 200 distinct and 50 shared exchanges into one folder lose nothing and leave no temp file', async () => {
  const { dir, work, env } = await setUp()
  const recorded = await runVitest('cassettes-agents', WORKERS, { env: env('auto') })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  const pids = new Set((await readdir(join(work, 'pids'))).map((name) => name.split('-').at(-1)))
  expect(pids.size).toBe(4)
  // Each entry lies under its test: a shared exchange that two processes record at once is kept
  // in each test's folder (both copies hold the same reply), so 250 keys take 250 to 400 files.
  const files = (await filesUnder(dir)).filter((file) => !file.startsWith('_shared/schemas/'))
  expect(
    files.every((file) => /^[^/]+\.test\.ts\/[a-z0-9-]+\.[0-9a-f]{12}\.json$/.test(file)),
  ).toBe(true)
  const keys = new Set((await entriesUnder(dir)).map((entry) => entry.key))
  expect(keys.size).toBe(250)
  expect(files.length).toBeGreaterThanOrEqual(250)
  expect(files.length).toBeLessThanOrEqual(400)
  expect(await verifyCassettes(dir)).toEqual({ dir, entries: files.length, problems: [] })
  const requests = fake?.requests.length ?? 0
  expect(requests).toBeGreaterThanOrEqual(250)
  expect(requests).toBeLessThanOrEqual(400)

  await fake?.close()
  const replayed = await runVitest('cassettes-agents', WORKERS, { env: env('replay') })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
}, 180_000)
