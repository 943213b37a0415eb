// End to end: two shards of eval files, each run with the blob reporter, merged with
// --merge-reports: the merged run prints and reports both suites' gates, and fails for the one
// under its gate, as one run of both would.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'
import { runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let dir = ''

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: keywordJudge })
  dir = await mkdtemp(join(tmpdir(), 'rubricate-eval-shards-'))
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

test('the gates of two shards survive --merge-reports: the merged run prints both and fails for the unmet one', async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' }
  const exitCodes: (number | null)[] = []
  for (const shard of ['1/2', '2/2']) {
    const run = await runVitest(
      'evals',
      [
        '--config=vitest.shards.config.ts',
        `--shard=${shard}`,
        '--reporter=blob',
        `--outputFile.blob=${join(dir, 'blobs', `blob-${shard.replace('/', '-')}.json`)}`,
      ],
      { env },
    )
    exitCodes.push(run.exitCode)
  }
  // One shard holds the eval whose gate fails, the other the one that tolerates its failing row.
  expect(exitCodes.sort()).toEqual([0, 1])

  const merged = await runVitest(
    'evals',
    [
      '--config=vitest.shards.config.ts',
      `--merge-reports=${join(dir, 'blobs')}`,
      `--outputFile.rubricate=${join(dir, 'merged.json')}`,
    ],
    { env },
  )
  expect(merged.exitCode).toBe(1)
  expect(merged.stdout).toContain(
    '       Eval  "arithmetic" 2 of 4 rows passed (50%) · gate 75% ✗ unmet · mean: exactMatch 0.5',
  )
  expect(merged.stdout).toContain(
    '       Eval  "support echo" 4 of 5 rows passed (80%) · gate 80% ✓ met · mean: rubric 0.8, exactMatch 1',
  )
  expect(merged.stdout).toContain(
    '       ✗ row failed, tolerated: the eval gates on a pass rate of 80%',
  )
  expect(merged.stderr).toContain('[rubricate] The eval "arithmetic" fails its gate')
  const report: RubricateJsonReport = JSON.parse(await readFile(join(dir, 'merged.json'), 'utf8'))
  expect(
    report.summary.evals?.map(({ file, name, passed, rows, gatePassed }) => ({
      file,
      name,
      passed,
      rows,
      gatePassed,
    })),
  ).toEqual([
    { file: 'gate-fails.test.ts', name: 'arithmetic', passed: 2, rows: 4, gatePassed: false },
    { file: 'tolerated.test.ts', name: 'support echo', passed: 4, rows: 5, gatePassed: true },
  ])
}, 180_000)
