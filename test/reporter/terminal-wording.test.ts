// Wording that new users found confusing (issue 20, item 4): each test pins the new output.
import { stripVTControlCharacters } from 'node:util'
import { expect, test } from 'vitest'
import { toPassScorer } from '../../matchers'
import type { RunReport } from '../../reporters/collect-run'
import { plain } from '../../reporters/figures'
import { formatScore, renderRecords } from '../../reporters/render-record'
import { renderSummary } from '../../reporters/render-summary'
import { summariseRun } from '../../reporters/run-summary'
import type { RubricateRecord } from '../../src/records/records'
import { call, record, verdict } from './records'

expect.extend({ toPassScorer })

const style = { indent: '     ', colors: plain }

function report(...records: RubricateRecord[]): RunReport {
  return {
    skippedTests: 0,
    files: [{ file: 'a.test.ts', tests: [{ name: 't', fullName: 't', state: 'pass', records }] }],
  }
}

test('a record run says its recorded calls went live and were kept, matching the live tokens', () => {
  const recorded = Array.from({ length: 13 }, () => call('recorded', { input: 700, output: 30 }))
  const lines = renderSummary(summariseRun(report(record({ judgeCalls: recorded })), {}), plain)
  expect(lines[1]).toBe(
    '      Judge  13 calls: 0 replayed, 13 live (all recorded into cassettes) · tokens 9,490 live, 0 replayed · cost $0.0043',
  )
  const mixed = renderSummary(
    summariseRun(
      report(record({ judgeCalls: [call('recorded'), call('live'), call('replayed')] })),
      {},
    ),
    plain,
  )
  expect(mixed[1]).toContain('3 calls: 1 replayed, 2 live (1 recorded into cassettes)')
})

test('an erroring scorer is named by its id, in its record and in its line', async ({ task }) => {
  const flaky = {
    id: 'flaky',
    async run(): Promise<never> {
      throw new Error('upstream down')
    },
  }
  await expect('x')
    .toPassScorer(flaky)
    .catch(() => {})
  const records = task.meta.rubricate as RubricateRecord[]
  expect(records.at(-1)).toMatchObject({ kind: 'scorer', status: 'error', scorerId: 'flaky' })
  expect(renderRecords(records.slice(-1), style)).toEqual([
    '     ! scorer "flaky"',
    '       ! Error: upstream down',
  ])
})

test("a rubric scorer's line does not repeat its reason above its criterion lines", () => {
  const lines = renderRecords(
    [
      record({
        kind: 'scorer',
        scorerId: 'support-rubric',
        status: 'fail',
        score: 0.5,
        threshold: 1,
        reason: 'Met: Apologises.\nUnmet: Offers a refund: no refund is offered.',
        verdicts: [
          verdict('Apologises', true),
          verdict('Offers a refund', false, { reasoning: 'No refund is offered.' }),
        ],
      }),
      // A scorer without verdicts keeps its reason: it is all there is to say.
      record({ kind: 'scorer', scorerId: 'tone', status: 'pass', score: 1, reason: 'Warm.' }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✗ scorer "support-rubric": score 0.5, threshold 1',
    '       ✓ [required] Apologises',
    '       ✗ [required] Offers a refund: No refund is offered.',
    '     ✓ scorer "tone": score 1: Warm.',
  ])
})

test('the summary counts loops apart from assertions, and names the matchers when not all are rubrics', () => {
  const lines = renderSummary(
    summariseRun(
      report(
        record({ kind: 'loop', status: 'fail', loopId: 'l1' }),
        record({ kind: 'scorer', status: 'pass', score: 1 }),
        record({ verdicts: [verdict('a', true)] }),
      ),
      {},
    ),
    plain,
  )
  expect(lines[0]).toBe(
    ' Assertions  2 assertions (1 rubric, 1 scorer): 2 passed, 0 failed, 0 errored · 1 loop: 0 complete, 1 incomplete, 0 errored · 1 criterion: 1 met, 0 required unmet, 0 optional unmet',
  )
  // A green file whose only record is an incomplete loop no longer reads as a failed assertion.
  const loopOnly = renderSummary(
    summariseRun(report(record({ kind: 'loop', status: 'fail' })), {}),
    plain,
  )
  expect(loopOnly[0]).toBe(' Assertions  1 loop: 0 complete, 1 incomplete, 0 errored')
})

test('a JSON string output is shown unescaped and indented, cut by lines', async () => {
  const output = JSON.stringify({
    answer: 'Refunds take "5" days.',
    items: Array.from({ length: 40 }, (_, i) => i),
  })
  const low = { id: 'low', run: async () => ({ score: 0 }) }
  const error = await expect(output)
    .toPassScorer(low)
    .then(
      () => new Error('passed'),
      (e: Error) => e,
    )
  const message = stripVTControlCharacters(error.message)
  expect(message).toContain(
    'Output (JSON, first 30 of 45 lines):\n{\n  "answer": "Refunds take \\"5\\" days.",\n  "items": [\n    0,',
  )
  expect(message).not.toContain('\\"answer\\"')
  expect(message.trimEnd().split('\n').at(-1)).toBe('…')
})

test('a score that rounds to its threshold shows the digits that tell them apart', () => {
  expect(formatScore(0.998, 1)).toBe('0.998')
  expect(formatScore(1, 0.998)).toBe('1')
  expect(formatScore(0.4444)).toBe('0.44')
  const [line] = renderRecords(
    [record({ kind: 'scorer', scorerId: 's', status: 'fail', score: 0.998, threshold: 1 })],
    style,
  )
  expect(line).toBe('     ✗ scorer "s": score 0.998, threshold 1')
})
