import { expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import { renderHtml } from '../../reporters/render-html'
import { summariseRun } from '../../reporters/run-summary'
import { recordedTexts } from '../../src/output'
import { call, record, verdict } from './records'

const KEY = 'ab'.repeat(32)

function run(): RunReport {
  return {
    skippedTests: 0,
    files: [
      {
        file: 'support.test.ts',
        cassettes: { mode: 'replay', dir: '/repo/__cassettes__', used: [KEY], misses: [] },
        tests: [
          {
            name: 'apologises',
            fullName: 'support > apologises',
            state: 'fail',
            records: [
              record({
                status: 'fail',
                ...recordedTexts('Sorry </script><b>x</b>', 'Where is my refund?'),
                verdicts: [
                  verdict('Apologises', true),
                  verdict('Offers a refund', false, { reasoning: 'No refund is offered.' }),
                  verdict('Gives a date', false, { required: false, reasoning: 'No date.' }),
                ],
                judgeCalls: [
                  {
                    ...call('replayed'),
                    cassetteKey: KEY,
                    cassetteFile: 'support.test.ts/refund.abababababab.json',
                  },
                ],
              }),
              record({
                kind: 'scorer',
                scorerId: 'tone',
                status: 'fail',
                score: 0.4,
                threshold: 0.8,
                reason: 'Too curt.',
                ...recordedTexts('Sorry </script><b>x</b>', 'Where is my refund?'),
              }),
            ],
          },
          {
            name: 'errors',
            fullName: 'errors',
            state: 'fail',
            records: [
              record({
                kind: 'scorer',
                scorerId: 'tone',
                status: 'error',
                error: { code: 'RUBRICATE_SCORER_RUN', message: 'boom' },
              }),
            ],
          },
          {
            name: 'tolerated',
            fullName: 'echo > tolerated',
            state: 'pass',
            records: [record({ status: 'fail', verdicts: [verdict('Mentions a date', false)] })],
            evalRow: {
              v: 1,
              suite: 'echo',
              passed: false,
              errored: false,
              tolerated: true,
              trials: [{ passed: false, scores: {} }],
              trialPassRate: 1,
              passRate: 0.5,
            },
          },
        ],
      },
    ],
  }
}

test('the page holds one row per test with its input, output, assertions and reasoning in view', () => {
  const report = run()
  const html = renderHtml(report, summariseRun(report, {}), { root: '/repo' })
  expect(html.startsWith('<!doctype html>')).toBe(true)
  // Self-contained: no external script, style, image or font; the policy allows nothing else.
  expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/)
  expect(html).not.toMatch(/https?:\/\//)
  expect(html).toMatch(
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'">/,
  )
  expect(html.match(/<script>/g)).toHaveLength(1)
  // One row per test, whatever its assertions.
  expect(html.match(/<tr class="test"/g)).toHaveLength(3)
  expect(html).not.toMatch(/#[12]</)
  const rows = html.split('<tr class="test"').slice(1)
  const [apologises, errors, tolerated] = rows as [string, string, string]
  expect(apologises).toContain('data-status="failed"')
  expect(apologises).toContain('<summary>Input</summary><pre>Where is my refund?</pre>')
  // Raw markup in an output is text, never markup.
  expect(apologises).toContain('<pre>Sorry &lt;/script&gt;&lt;b&gt;x&lt;/b&gt;</pre>')
  expect(apologises).toContain('<span class="kind">rubric</span>')
  expect(apologises).toContain('<span class="kind">scorer</span> &quot;tone&quot;')
  expect(apologises).toContain('<span class="crit">Offers a refund</span>')
  expect(apologises).toContain('<span class="why">No refund is offered.</span>')
  expect(apologises).toContain('Reason:</span> Too curt.')
  // The cassette entry file the call used, in its test file's folder (format v2).
  expect(apologises).toContain('<li>__cassettes__/support.test.ts/refund.abababababab.json</li>')
  expect(errors).toContain('data-status="errored"')
  expect(errors).toContain('Error RUBRICATE_SCORER_RUN: boom')
  expect(tolerated).toContain('data-status="tolerated"')
  expect(tolerated).toContain('✗ tolerated')
  expect(tolerated).toContain('the eval gates on a pass rate of 50%')
  expect(html).toContain('<dt>Assertions</dt><dd>4 assertions (2 rubric, 2 scorer)')
})

test('a long output is closed with its start showing; a short one is open', () => {
  const long = `${'A line of a long answer. '.repeat(30)}The end.`
  const report: RunReport = {
    skippedTests: 0,
    files: [
      {
        file: 'a.test.ts',
        tests: [
          {
            name: 'long',
            fullName: 'long',
            state: 'pass',
            records: [record({ ...recordedTexts(long, 'Short question?') })],
          },
        ],
      },
    ],
  }
  const html = renderHtml(report, summariseRun(report, {}))
  expect(html).toContain(
    '<details class="text" open><summary>Input</summary><pre>Short question?</pre>',
  )
  expect(html).toContain(
    `<details class="text"><summary>Output judged · ${long.length} characters<span class="preview">A line of a long answer. A line`,
  )
  expect(html).toContain(`<pre>${long}</pre>`)
})

test('the trials of an eval row are grouped as trials, each showing the output it judged', () => {
  const trial = (n: number, output: string, passed: boolean) =>
    record({
      trial: n,
      status: passed ? 'pass' : 'fail',
      ...recordedTexts(output, 'Say hello'),
      verdicts: [verdict('Mentions Hello', passed)],
    })
  const report: RunReport = {
    skippedTests: 0,
    files: [
      {
        file: 'evals.test.ts',
        tests: [
          {
            name: 'Say hello',
            fullName: 'greeting > Say hello',
            state: 'pass',
            records: [
              trial(1, 'Hello!', true),
              trial(2, 'Good day.', false),
              trial(3, 'Hello!', true),
            ],
            evalRow: {
              v: 1,
              suite: 'greeting',
              passed: true,
              errored: false,
              tolerated: false,
              trials: [true, false, true].map((passed) => ({ passed, scores: {} })),
              trialPassRate: 0.6,
              passRate: 1,
            },
          },
        ],
      },
    ],
  }
  const html = renderHtml(report, summariseRun(report, {}))
  expect(html.match(/<tr class="test"/g)).toHaveLength(1)
  expect(html).toContain('data-status="passed"')
  expect(html).toContain('Trials: 2 of 3 passed, needs 60%.')
  const groups = html.split('<li class="group">').slice(1)
  expect(groups.map((g) => g.slice(0, g.indexOf('<')))).toEqual([
    'Trial 1 of 3 ✓ passed',
    'Trial 2 of 3 ✗ failed',
    'Trial 3 of 3 ✓ passed',
  ])
  // Trial 2 answered otherwise: its output is shown in its group; trials 1 and 3 answered as the
  // row shows, so nothing is repeated.
  expect(groups[1]).toContain('<summary>Output judged</summary><pre>Good day.</pre>')
  expect(groups[0]).not.toContain('Output judged')
  expect(groups[2]).not.toContain('Output judged')
})

test('with 1,000 assertions the page stays small and quick to build', () => {
  const tests = Array.from({ length: 1000 }, (_, i) => ({
    name: `case ${i}`,
    fullName: `cases > case ${i}`,
    state: i % 10 === 0 ? 'fail' : 'pass',
    records: [
      record({
        status: i % 10 === 0 ? 'fail' : 'pass',
        outputPreview: 'x'.repeat(200),
        verdicts: Array.from({ length: 4 }, (_, c) =>
          verdict(`Criterion number ${c} of the shared rubric`, !(i % 10 === 0 && c === 1), {
            reasoning: 'A sentence of reasoning that the judge gave for this criterion.',
          }),
        ),
        judgeCalls: [{ ...call('replayed'), cassetteKey: KEY }],
      }),
    ],
  }))
  const report: RunReport = { skippedTests: 0, files: [{ file: 'many.test.ts', tests }] }
  const started = performance.now()
  const html = renderHtml(report, summariseRun(report, {}))
  const ms = performance.now() - started
  // Measured (2026-12-02, 2 busy cores): about 1.8 MB and 100 to 150 ms; the budget leaves room
  // on a slow CI runner.
  expect(Buffer.byteLength(html)).toBeLessThan(4_000_000)
  expect(ms).toBeLessThan(1000)
})
