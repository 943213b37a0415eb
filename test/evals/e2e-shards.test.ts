// End to end: two shards of eval files, each run with the blob reporter, merged with
// --merge-reports: the merged run prints and reports every suite's gates (pass rate, per-scorer
// mean gates, the weighted mean gate) in the terminal, the JSON report, JUnit and the report page,
// and fails for the ones unmet, as one run of all would.
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

// The JUnit file and the report page of a run, beside its JSON report.
const artifacts = (name: string) => [
  '--reporter=default',
  '--reporter=junit',
  `--outputFile.junit=${join(dir, `${name}.xml`)}`,
  `--outputFile.rubricate-html=${join(dir, `${name}.html`)}`,
]
// The eval gates JUnit carries: one property per suite, under the suite's last row (sorted: the
// files of a merged run come in the order of their shards).
const junitGates = (xml: string) =>
  [...xml.matchAll(/<property name="rubricate" value="(eval [^"]*)">/g)].map((m) => m[1]).sort()

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
  // Two of the three evals fail a gate; whichever shard holds one fails.
  expect(exitCodes).toContain(1)

  const merged = await runVitest(
    'evals',
    [
      '--config=vitest.shards.config.ts',
      `--merge-reports=${join(dir, 'blobs')}`,
      `--outputFile.rubricate=${join(dir, 'merged.json')}`,
      ...artifacts('merged'),
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
  expect(merged.stdout).toContain(
    '       Eval  "answer quality" 4 of 4 rows passed (100%) · gate 100% ✓ met · mean: correctness 0.81 (≥ 0.8 ✓), hallucination ↓ ×2 0.18 (≤ 0.15 ✗) · weighted mean 0.82 (≥ 0.8 ✓)',
  )
  expect(merged.stderr).toContain('[rubricate] The eval "arithmetic" fails its gate')
  expect(merged.stderr).toContain(
    '[rubricate] The eval "answer quality" fails its mean gate: the mean of "hallucination" is 0.175, over the maximum of 0.15.',
  )
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
    { file: 'mean-gates.test.ts', name: 'answer quality', passed: 4, rows: 4, gatePassed: false },
    { file: 'tolerated.test.ts', name: 'support echo', passed: 4, rows: 5, gatePassed: true },
  ])
  expect(report.summary.evals?.find((suite) => suite.name === 'answer quality')?.meanGates).toEqual(
    [
      // Each gate with its coverage: every row scored, as the default floor asks.
      {
        scorer: 'correctness',
        direction: 'min',
        threshold: 0.8,
        mean: 0.8125,
        passed: true,
        scored: 4,
        total: 4,
        minCoverage: 1,
      },
      {
        scorer: 'hallucination',
        direction: 'max',
        threshold: 0.15,
        mean: expect.closeTo(0.175, 9),
        passed: false,
        scored: 4,
        total: 4,
        minCoverage: 1,
      },
      {
        direction: 'min',
        threshold: 0.8,
        mean: expect.closeTo(0.8208, 3),
        passed: true,
        scored: 4,
        total: 4,
        minCoverage: 1,
      },
    ],
  )

  // One run of all three files gives the same gates, line for line and in the JSON report.
  const whole = await runVitest(
    'evals',
    [
      '--config=vitest.shards.config.ts',
      `--outputFile.rubricate=${join(dir, 'whole.json')}`,
      ...artifacts('whole'),
    ],
    { env },
  )
  expect(whole.exitCode).toBe(1)
  const evalLines = (stdout: string) => stdout.split('\n').filter((line) => line.includes(' Eval '))
  expect(evalLines(merged.stdout)).toHaveLength(3)
  expect(evalLines(merged.stdout)).toEqual(evalLines(whole.stdout))
  const wholeReport: RubricateJsonReport = JSON.parse(
    await readFile(join(dir, 'whole.json'), 'utf8'),
  )
  expect(report.summary.evals).toEqual(wholeReport.summary.evals)

  // JUnit: each suite's gates, met or not, as a property of its last row, the same merged or whole.
  const mergedJunit = await readFile(join(dir, 'merged.xml'), 'utf8')
  expect(junitGates(mergedJunit)).toEqual([
    'eval &quot;answer quality&quot;: 4 of 4 rows passed (100%) · gate 100% ✓ met · mean: correctness 0.81 (≥ 0.8 ✓), hallucination ↓ ×2 0.18 (≤ 0.15 ✗) · weighted mean 0.82 (≥ 0.8 ✓)',
    'eval &quot;arithmetic&quot;: 2 of 4 rows passed (50%) · gate 75% ✗ unmet · mean: exactMatch 0.5',
    'eval &quot;support echo&quot;: 4 of 5 rows passed (80%) · gate 80% ✓ met · mean: rubric 0.8, exactMatch 1',
  ])
  expect(junitGates(await readFile(join(dir, 'whole.xml'), 'utf8'))).toEqual(
    junitGates(mergedJunit),
  )
  const underRow = mergedJunit.slice(
    mergedJunit.lastIndexOf('<testcase', mergedJunit.indexOf('eval &quot;answer quality')),
  )
  expect(underRow).toMatch(
    /^<testcase classname="mean-gates.test.ts" name="answer quality &gt; q4"/,
  )

  // The report page: the same Eval lines in its run summary.
  const page = await readFile(join(dir, 'merged.html'), 'utf8')
  expect(page).toContain(
    '<dt>Eval</dt><dd>&quot;answer quality&quot; 4 of 4 rows passed (100%) · gate 100% ✓ met · mean: correctness 0.81 (≥ 0.8 ✓), hallucination ↓ ×2 0.18 (≤ 0.15 ✗) · weighted mean 0.82 (≥ 0.8 ✓)</dd>',
  )
  // A row's own bounds: the lower-is-better scorer's upper bound, the other's threshold.
  expect(page).toContain('<span class="tag">score 0.4 / ≤ 0.5</span>')
  expect(page).toContain('<span class="tag">score 0.75 / 0.5</span>')
  const summaryOf = (html: string) =>
    html.slice(
      html.indexOf('<section id="summary">'),
      html.indexOf('</section>', html.indexOf('<section id="summary">')),
    )
  expect(summaryOf(page).match(/<dt>Eval<\/dt>/g)).toHaveLength(3)
  expect(summaryOf(page)).toBe(summaryOf(await readFile(join(dir, 'whole.html'), 'utf8')))
}, 240_000)
