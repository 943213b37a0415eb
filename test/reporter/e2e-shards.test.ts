// End to end: two shards run with the blob reporter, merged with --merge-reports, give the same
// rubricate report as one run of the whole suite: everything travels in task.meta.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { runVitest } from '../support/run-vitest'

let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubricate-shards-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function report(name: string): Promise<RubricateJsonReport> {
  return JSON.parse(await readFile(join(dir, name), 'utf8'))
}

test('two shards merged give one report holding every assertion of both', async () => {
  const whole = await runVitest('reporter', [`--outputFile.rubricate=${join(dir, 'whole.json')}`], {
    ci: true,
  })
  expect(whole.exitCode).toBe(1)
  for (const shard of ['1/2', '2/2']) {
    const run = await runVitest(
      'reporter',
      [
        `--shard=${shard}`,
        '--reporter=blob',
        `--outputFile.blob=${join(dir, 'blobs', `blob-${shard.replace('/', '-')}.json`)}`,
        `--outputFile.rubricate=${join(dir, 'shard.json')}`,
      ],
      { ci: true },
    )
    // A shard is not the whole suite: its summary says so on stderr, and it writes no report (the
    // merged run does).
    expect(run.stderr).toContain(' Assertions  ')
  }
  expect((await readdir(join(dir, 'blobs'))).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json'])
  await expect(readFile(join(dir, 'shard.json'))).rejects.toThrow('ENOENT')

  const merged = await runVitest(
    'reporter',
    [
      `--merge-reports=${join(dir, 'blobs')}`,
      `--outputFile.rubricate=${join(dir, 'merged.json')}`,
      '--reporter=default',
      '--reporter=junit',
      `--outputFile.junit=${join(dir, 'junit.xml')}`,
    ],
    { ci: true },
  )
  expect(merged.exitCode).toBe(1)
  const [wholeReport, mergedReport] = [await report('whole.json'), await report('merged.json')]
  expect(mergedReport.files.map((file) => file.file)).toEqual([
    'judge-error.test.ts',
    'loop.test.ts',
    'optional-unmet.test.ts',
    'rubric-fail.test.ts',
    'rubric-pass.test.ts',
    'scorer.test.ts',
    'suite.test.ts',
  ])
  expect(mergedReport.summary.assertions).toEqual({ total: 6, passed: 4, failed: 1, errored: 1 })
  // Durations differ between runs; every other field of every record is the same.
  const withoutDurations = (r: RubricateJsonReport) =>
    JSON.parse(JSON.stringify(r.files, (key, value) => (key === 'durationMs' ? 0 : value)))
  expect(withoutDurations(mergedReport)).toEqual(withoutDurations(wholeReport))
  expect(mergedReport.summary).toEqual(wholeReport.summary)
  // The shards annotated their tests; the merged run does not add the annotations a second time.
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8')
  // One per record: 4 rubric assertions, 1 judge error, 1 scorer and 1 loop, once each; the 8
  // criteria a line each in them.
  expect(junit.match(/<property name="rubricate" /g)).toHaveLength(7)
  expect(junit.match(/(?:value="|\r\n {5})(?:un)?met \[/g)).toHaveLength(8)
  // The merged terminal output lists the verdicts of both shards.
  expect(merged.stdout).toContain('✗ [required] Offers a human agent')
  expect(merged.stdout).toContain('✓ scorer "tone": score 0.9, threshold 0.8')
  expect(merged.stdout).toContain(
    ' Assertions  6 assertions (5 rubric, 1 scorer): 4 passed, 1 failed, 1 errored · 1 loop: 1 complete, 0 incomplete, 0 errored · 8 criteria: 6 met, 1 required unmet, 1 optional unmet',
  )
}, 180_000)
