// Group 5: eight worker processes record 1,000 exchanges into one cassette folder at once, through
// rubricate's msw server (the cassette tests' concurrency harness, test/fixtures/cassettes-agents,
// run with more workers and calls), then replay them with no server: nothing lost, nothing torn,
// no temporary file left.

import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder } from '../cassettes/support'
import { runVitest, type VitestRun } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

const WORKERS = 8
const DISTINCT = 120
const SHARED = 40
const NAMES = 'abcdefgh'.split('').map((letter) => `worker-${letter}`)
// 8 x 120 of each worker's own, and 40 that all eight make at the same time.
const EXCHANGES = WORKERS * DISTINCT + SHARED

let fake: FakeOpenAI
let dir: string
let work: string
let recorded: VitestRun
let replayed: VitestRun
let recordedFiles: string[] = []
let workers: { name: string; pid: string; started: number; ended: number }[]
let liveRequests: number

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: (r) => `You said: ${r.body.messages.at(-1).content}` })
  work = tempDir('rubricate-load-')
  dir = join(work, 'cassettes')
  const env = (mode: string) => ({
    FIXTURE_BASE_URL: fake.baseURL,
    FIXTURE_CASSETTES: dir,
    FIXTURE_MODE: mode,
    FIXTURE_WORKERS: String(WORKERS),
    FIXTURE_DISTINCT: String(DISTINCT),
    FIXTURE_SHARED: String(SHARED),
  })
  recorded = await runVitest('cassettes-agents', ['worker-'], {
    env: env('auto'),
    timeoutMs: 150_000,
  })
  workers = await Promise.all(
    (await readdir(join(work, 'pids'))).map(async (file) => ({
      name: file.slice(0, file.lastIndexOf('-')),
      pid: file.slice(file.lastIndexOf('-') + 1),
      ...JSON.parse(await readFile(join(work, 'pids', file), 'utf8')),
    })),
  )
  liveRequests = fake.requests.length
  await fake.close()
  recordedFiles = await filesUnder(dir)
  replayed = await runVitest('cassettes-agents', ['worker-'], {
    env: env('replay'),
    timeoutMs: 150_000,
  })
}, 330_000)

afterAll(async () => {
  await fake?.close()
})

describe('5. Load', () => {
  test('eight worker processes record at the same time, every call answered', () => {
    expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
    expect(recorded.stdout).toContain(`Tests  ${WORKERS} passed (${WORKERS})`)
    expect(workers.map((worker) => worker.name).sort()).toEqual(NAMES)
    expect(new Set(workers.map((worker) => worker.pid)).size).toBe(WORKERS)
    // Each worker's calls overlapped another worker's: they wrote into the folder at once.
    for (const worker of workers) {
      const overlapping = workers.filter(
        (other) => other !== worker && other.started < worker.ended && worker.started < other.ended,
      )
      expect(overlapping.length, worker.name).toBeGreaterThan(0)
    }
    // Every exchange went live at least once; a shared one may go live in several workers at once.
    expect(liveRequests).toBeGreaterThanOrEqual(EXCHANGES)
    expect(liveRequests).toBeLessThanOrEqual(WORKERS * (DISTINCT + SHARED))
  })

  test('0 lost: one entry for each of the 1,000 exchanges, each with its own reply', async () => {
    // Each entry lies under its test: a shared exchange that several workers record at once is
    // kept in each test's folder, every copy with the same reply. One key each, none lost.
    const all = await entriesUnder(dir)
    const entries = [...new Map(all.map((entry) => [entry.key, entry])).values()]
    expect(entries).toHaveLength(EXCHANGES)
    expect(all.length).toBeLessThanOrEqual(WORKERS * SHARED + EXCHANGES - SHARED)
    const prompts = entries.map((entry) => entry.request.body.messages[0].content).sort()
    const expected = [
      ...NAMES.flatMap((name) =>
        Array.from({ length: DISTINCT }, (_, i) => `${name} distinct ${i}`),
      ),
      ...Array.from({ length: SHARED }, (_, i) => `shared ${i}`),
    ].sort()
    expect(prompts).toEqual(expected)
    for (const entry of entries) {
      expect(entry.response.json.choices[0].message.content).toBe(
        `You said: ${entry.request.body.messages[0].content}`,
      )
    }
  })

  test('0 torn: every file parses as a whole entry whose key matches its content', async () => {
    const files = (await filesUnder(dir)).filter((file) => !file.startsWith('_shared/schemas/'))
    expect(files.length).toBeGreaterThanOrEqual(EXCHANGES)
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8')
      expect(text.endsWith('}\n'), file).toBe(true)
      const entry = JSON.parse(text)
      expect(file.endsWith(`.${entry.key.slice(0, 12)}.json`), file).toBe(true)
      expect(computeKey(entry.request.endpoint, entry.request.body)).toBe(entry.key)
    }
    expect(await verifyCassettes(dir)).toEqual({ dir, entries: files.length, problems: [] })
  })

  test('0 temporary files: nothing but entries in the folder', async () => {
    const listing = await new CassetteStore(dir).list()
    expect(listing.others).toEqual([])
    expect(
      (await filesUnder(dir)).filter(
        (file) =>
          !/^[^/]+\.test\.ts\/[a-z0-9-]+\.[0-9a-f]{12}\.json$/.test(file) &&
          !file.startsWith('_shared/schemas/'),
      ),
    ).toEqual([])
  })

  test('the replay, with the server gone, serves all 1,280 calls from the folder and changes nothing', async () => {
    expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
    expect(replayed.stdout).toContain(`Tests  ${WORKERS} passed (${WORKERS})`)
    expect(await filesUnder(dir)).toEqual(recordedFiles)
    expect((await new CassetteStore(dir).list()).others).toEqual([])
  })
})
