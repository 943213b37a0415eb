// Group 28: test files that share a worker (`isolate: false`), as the fast setup runs them. One
// worker runs every file of the `shared-workers` fixture in turn, under both pools and in shuffled
// orders, and each file's outcome must be the one it has alone: its replays served as its own,
// its misses failing its own test (or itself), nothing of it failing a later file.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { copyFixture, removeCopy, repoRoot, runVitest } from '../support/run-vitest'

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}

let server: FakeOpenAI
let dir = ''
// The same project with rubricate installed in its node_modules, as npm installs it.
let installed = ''

// The cassettes are recorded now, isolated, by the two files that replay: a prompt change
// elsewhere cannot leave this fixture with stale recordings.
beforeAll(async () => {
  server = await startFakeOpenAI({ reply: () => GREETS })
  dir = await copyFixture('shared-workers')
  const recorded = await runVitest(dir, ['replays-a.test.ts', 'replays-b.test.ts'], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'record' },
  })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  // Two identical calls in each test: two recordings each, in order.
  expect(server.requests).toHaveLength(4)
  server.clearRequests()
  // Under node_modules Vitest loads a package's files with Node's own import(), once per worker,
  // unless they are inlined: the setup file's hooks would then hold for the worker's first file only.
  installed = await copyFixture('shared-workers')
  // A package.json of its own, or `rubricate` would resolve to this repository (a self-reference).
  await writeFile(
    join(installed, 'package.json'),
    JSON.stringify({ name: 'shared-workers-installed', private: true, type: 'module' }),
  )
  await cp(join(dir, '__cassettes__'), join(installed, '__cassettes__'), { recursive: true })
  const pkg = join(installed, 'node_modules', 'rubricate')
  await mkdir(pkg, { recursive: true })
  await cp(join(repoRoot, 'package.json'), join(pkg, 'package.json'))
  await cp(join(repoRoot, 'dist'), join(pkg, 'dist'), { recursive: true })
}, 120_000)

afterAll(async () => {
  await server?.close()
  if (dir) await removeCopy(dir)
  if (installed) await removeCopy(installed)
})

interface FileResult {
  name: string
  status: string
  message: string
  startTime: number
  assertionResults: { title: string; status: string; failureMessages: string[] }[]
}

// One shared-worker run under CI (replay), and what each file did, in the order the worker ran them.
async function sharedRun(
  pool: 'forks' | 'threads',
  seed: number,
  root = dir,
): Promise<FileResult[]> {
  const report = join(root, `report-${pool}-${seed}.json`)
  const run = await runVitest(
    root,
    [
      '--no-isolate',
      `--pool=${pool}`,
      '--maxWorkers=1',
      '--sequence.shuffle.files',
      `--sequence.seed=${seed}`,
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    { ci: true, env: { FAKE_OPENAI_URL: server.baseURL } },
  )
  expect(run.exitCode).toBe(1)
  const { testResults } = JSON.parse(await readFile(report, 'utf8')) as {
    testResults: FileResult[]
  }
  return testResults
    .map((file) => ({ ...file, name: file.name.slice(root.length + 1) }))
    .sort((a, b) => a.startTime - b.startTime)
}

// What each file does alone: the same in every order and pool.
function outcomes(files: FileResult[]): Record<string, unknown> {
  return Object.fromEntries(
    files.map((file) => [
      file.name,
      {
        status: file.status,
        tests: Object.fromEntries(file.assertionResults.map((t) => [t.title, t.status])),
      },
    ]),
  )
}

const EXPECTED = {
  'broken-at-import.test.ts': { status: 'failed', tests: {} },
  'caught-miss.test.ts': {
    status: 'failed',
    tests: {
      'a judge miss caught in try/catch': 'failed',
      'an agent miss whose HTTP error the code ignores': 'failed',
    },
  },
  'configures.test.ts': { status: 'passed', tests: { 'configures its own judge': 'passed' } },
  'expects-undecided.test.ts': {
    status: 'failed',
    tests: { 'expects a miss': 'passed', 'a miss in the next test is not expected': 'failed' },
  },
  'miss-in-before-all.test.ts': { status: 'failed', tests: { 'a test of the file': 'passed' } },
  'replays-a.test.ts': { status: 'passed', tests: { 'replays its own recordings (a)': 'passed' } },
  'replays-b.test.ts': { status: 'passed', tests: { 'replays its own recordings (b)': 'passed' } },
}

describe('28. Shared workers', () => {
  // Two seeds per pool, chosen so that the file of caught misses runs first in some orders and
  // after other files in others (checked below: an order that never tests the shared case would
  // prove nothing).
  test.for([
    ['forks', 3],
    ['forks', 8],
    ['threads', 3],
    ['threads', 8],
  ] as const)(
    'files sharing one worker (pool %s, seed %i) each fail or pass as they do alone, and no miss fails a later file',
    { timeout: 120_000 },
    async ([pool, seed]) => {
      const files = await sharedRun(pool, seed)
      expect(outcomes(files)).toEqual(EXPECTED)
      const caught = files.find((file) => file.name === 'caught-miss.test.ts')
      for (const result of caught?.assertionResults ?? []) {
        expect(result.failureMessages.join('\n')).toContain('RUBRICATE_CASSETTE_MISS')
      }
      const broken = files.find((file) => file.name === 'broken-at-import.test.ts')
      expect(broken?.message).toContain('this file breaks at import')
      const beforeAllMiss = files.find((file) => file.name === 'miss-in-before-all.test.ts')
      expect(beforeAllMiss?.message).toContain('Not recorded in beforeAll')
      // No judge request left the worker: every call replayed or missed.
      expect(server.requests).toHaveLength(0)
    },
  )

  // Seed 8 runs the file of caught misses after others (checked below).
  test.for(['forks', 'threads'] as const)(
    'with rubricate installed under node_modules, every file sharing the worker (pool %s) has its own outcome',
    { timeout: 120_000 },
    async (pool) => {
      const files = await sharedRun(pool, 8, installed)
      expect(outcomes(files)).toEqual(EXPECTED)
      expect(files[0]?.name).not.toBe('caught-miss.test.ts')
      expect(server.requests).toHaveLength(0)
    },
  )

  test('the seeds above run the file of caught misses both first and after other files', async () => {
    const firsts = await Promise.all(
      [3, 8].map(async (seed) => {
        const report = JSON.parse(
          await readFile(join(dir, `report-forks-${seed}.json`), 'utf8'),
        ) as { testResults: FileResult[] }
        const order = report.testResults.sort((a, b) => a.startTime - b.startTime)
        return order[0]?.name.endsWith('caught-miss.test.ts')
      }),
    )
    expect(firsts).toContain(false)
  })
})
