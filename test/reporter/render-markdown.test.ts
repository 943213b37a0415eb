import { expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import { renderMarkdown } from '../../reporters/render-markdown'
import { summariseRun } from '../../reporters/run-summary'
import { call, record, verdict } from './records'

test('renders the summary, then a table per file with a row per criterion, scorer and loop', () => {
  const report: RunReport = {
    skippedTests: 0,
    files: [
      {
        file: 'support.test.ts',
        tests: [
          {
            name: 'refund',
            fullName: 'support > refund',
            state: 'pass',
            records: [
              record({
                verdicts: [
                  verdict('Acknowledges | the charge', true, { reasoning: 'It says\n"sorry".' }),
                  verdict('Gives a <timeframe>', false, { required: false, reasoning: 'None.' }),
                ],
                judgeCalls: [call('replayed')],
              }),
            ],
          },
        ],
      },
      {
        file: 'tone.test.ts',
        project: 'unit',
        tests: [
          {
            name: 'tone',
            fullName: 'tone',
            state: 'fail',
            records: [
              record({
                kind: 'scorer',
                scorerId: 'tone',
                status: 'fail',
                score: 0.5,
                threshold: 0.8,
                reason: 'Curt.',
                verdicts: undefined,
              }),
              record({
                kind: 'loop',
                status: 'pass',
                reason: 'All passed.',
                verdicts: undefined,
                iterations: [{ iteration: 1, complete: true, outputPreview: '', scorers: [] }],
              }),
              record({
                status: 'error',
                verdicts: undefined,
                error: { code: 'RUBRICATE_CASSETTE_MISS', message: '[rubricate] No cassette.' },
              }),
            ],
          },
        ],
      },
      { file: 'quiet.test.ts', tests: [] },
    ],
  }
  expect(renderMarkdown(report, summariseRun(report, {}))).toBe(`## rubricate

- **Assertions** 3 assertions (2 rubric, 1 scorer): 1 passed, 1 failed, 1 errored · 1 loop: 1 complete, 0 incomplete, 0 errored · 2 criteria: 1 met, 0 required unmet, 1 optional unmet
- **Judge** 1 call: 1 replayed, 0 live · tokens 0 live, 1,000 replayed · cost $0.00

### support.test.ts

| Test | Criterion | Verdict | Reasoning |
| --- | --- | --- | --- |
| support &gt; refund | [required] Acknowledges \\| the charge | ✓ met | It says<br>"sorry". |
| support &gt; refund | [optional] Gives a &lt;timeframe&gt; | ○ unmet | None. |

### tone.test.ts (unit)

| Test | Criterion | Verdict | Reasoning |
| --- | --- | --- | --- |
| tone | scorer "tone" (threshold 0.8) | ✗ 0.5 | Curt. |
| tone | loop (1 iteration) | ✓ complete | All passed. |
| tone | rubric | ! RUBRICATE_CASSETTE_MISS | [rubricate] No cassette. |

`)
})

test('a run without rubricate assertions has no Markdown', () => {
  const report: RunReport = { skippedTests: 0, files: [{ file: 'a.test.ts', tests: [] }] }
  expect(renderMarkdown(report, summariseRun(report, {}))).toBe('')
})
