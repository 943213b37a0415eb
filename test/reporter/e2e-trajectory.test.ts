// End to end: a tool-call scorer against a reference trajectory, through the real matchers,
// setup file and plugin. The reporter prints its partial credit with each reference call's
// outcome, and the JSON report holds the same score and reason.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { runVitest } from '../support/run-vitest'

test('the partial credit of a reference trajectory and each call’s outcome reach the report', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-trajectory-'))
  const json = join(dir, 'rubricate.json')
  const run = await runVitest(
    'reporter-trajectory',
    ['--reporter=default', `--outputFile.rubricate=${json}`],
    { ci: true },
  )
  expect(run.exitCode, run.stdout + run.stderr).toBe(1)
  const lines = run.stdout.split('\n')
  expect(lines).toContain(
    '     ✓ scorer "order-path": score 0.5, threshold 0.5: 1 of 2 reference calls matched (superset); matched lookup_order {"id":"A1"}; missing refund {"id":"A1"}; extra (allowed) search {"q":"A1"}: score 0.5',
  )
  expect(lines).toContain(
    '     ✗ scorer "no-detours": score 0.5, threshold 1: 1 of 2 reference calls matched (subset); matched lookup_order {"id":"A1"}; missing refund {"id":"A1"}; extra (counted against) search {"q":"A1"}: score 0.5',
  )
  const report = JSON.parse(await readFile(json, 'utf8')) as RubricateJsonReport
  const records = report.files.flatMap((file) => file.tests.flatMap((t) => t.records))
  expect(
    records.map(({ scorerId, status, score, reason }) => ({ scorerId, status, score, reason })),
  ).toEqual([
    {
      scorerId: 'order-path',
      status: 'pass',
      score: 0.5,
      reason:
        '1 of 2 reference calls matched (superset); matched lookup_order {"id":"A1"}; missing refund {"id":"A1"}; extra (allowed) search {"q":"A1"}: score 0.5',
    },
    {
      scorerId: 'no-detours',
      status: 'fail',
      score: 0.5,
      reason:
        '1 of 2 reference calls matched (subset); matched lookup_order {"id":"A1"}; missing refund {"id":"A1"}; extra (counted against) search {"q":"A1"}: score 0.5',
    },
  ])
  await rm(dir, { recursive: true, force: true })
}, 120_000)
