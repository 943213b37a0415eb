import { expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import { renderHtml } from '../../reporters/render-html'
import { summariseRun } from '../../reporters/run-summary'
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
                outputPreview: 'Sorry </script><b>x</b>',
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
        ],
      },
    ],
  }
}

test('the page holds a matrix of tests by criteria, the summary, and the details of each cell', () => {
  const report = run()
  const html = renderHtml(report, summariseRun(report, {}), { root: '/repo' })
  expect(html.startsWith('<!doctype html>')).toBe(true)
  // Self-contained: no external script, style, image or font.
  expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/)
  expect(html).not.toMatch(/https?:\/\//)
  for (const column of ['Apologises', 'Offers a refund', 'Gives a date']) {
    expect(html).toContain(`<span>${column}</span>`)
  }
  expect(html).toContain('class="cell met"')
  expect(html).toContain('class="cell unmet"')
  expect(html).toContain('class="cell optional"')
  expect(html).toContain('! scorer &quot;tone&quot;')
  expect(html).toContain('<dt>Assertions</dt><dd>2 assertions (1 rubric, 1 scorer)')
  // The output is inside a JSON script block that cannot end early.
  expect(html).not.toContain('</script><b>')
  const json = /<script type="application\/json" id="details">(.*?)<\/script>/s.exec(html)?.[1]
  const details = JSON.parse(json ?? '[]') as {
    what: string
    text: string
    cassettes: string[]
    output: string
  }[]
  const refund = details.find((d) => d.what === 'Offers a refund')
  expect(refund).toMatchObject({
    text: expect.stringContaining('No refund is offered.'),
    output: 'Sorry </script><b>x</b>',
    // The entry file the call used, in its test file's folder (format v2).
    cassettes: ['__cassettes__/support.test.ts/refund.abababababab.json'],
  })
  expect(details.find((d) => d.what === 'scorer "tone"')?.text).toContain(
    'Error RUBRICATE_SCORER_RUN: boom',
  )
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
  // Measured: about 2.2 MB and well under 100 ms here; the budget leaves room on a slow CI runner.
  expect(Buffer.byteLength(html)).toBeLessThan(4_000_000)
  expect(ms).toBeLessThan(1000)
})
