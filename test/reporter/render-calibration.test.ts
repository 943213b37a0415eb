// A calibration record in the terminal, the Markdown job summary, the annotations and the JSON report.
import { expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import { plain } from '../../reporters/figures'
import { toJsonReport } from '../../reporters/json-report'
import { renderMarkdown } from '../../reporters/render-markdown'
import { renderRecords } from '../../reporters/render-record'
import { summariseRun } from '../../reporters/run-summary'
import { agreementMetrics, type JudgedLabel } from '../../src/calibrate/agreement-metrics'
import type { CalibrationResult } from '../../src/calibrate/calibrate-judge'
import { calibrationRecord, missedThresholds } from '../../src/calibrate/calibration-gate'
import { recordAnnotation } from '../../src/output-safety/record-annotations'
import { call, record } from './records'

const judged = (pairs: [boolean, boolean][]): JudgedLabel[] =>
  pairs.map(([verdict, label]) => ({ verdict, label }))

// "Acknowledges": 2 true passes, 1 false pass, 1 true fail; "Timeframe": 1 true pass, 1 false fail.
const acknowledges = judged([
  [true, true],
  [true, true],
  [true, false],
  [false, false],
])
const timeframe = judged([
  [true, true],
  [false, true],
])

function calibration(thresholds: { minKappa?: number; maxFalsePass?: number }) {
  const result: CalibrationResult = {
    judge: 'gpt-4.1-mini',
    source: 'support-agent/refund-labels.jsonl',
    examples: 4,
    samples: 1,
    overall: agreementMetrics([...acknowledges, ...timeframe]),
    criteria: [
      {
        criterion: 'Acknowledges the double charge',
        required: true,
        metrics: agreementMetrics(acknowledges),
      },
      { criterion: 'Gives a timeframe', required: false, metrics: agreementMetrics(timeframe) },
    ],
    disagreements: [
      {
        where: 'refund-labels.jsonl line 3',
        criterion: 'Acknowledges the double charge',
        required: true,
        kind: 'false pass',
        label: false,
        verdict: true,
        reasoning: 'The output says\n"double charge".',
        output: 'There is no double charge on your account.',
        note: 'denies it',
      },
      {
        where: 'refund-labels.jsonl line 4',
        criterion: 'Gives a timeframe',
        required: false,
        kind: 'false fail',
        label: true,
        verdict: false,
        reasoning: 'No timeframe is given.',
        output: 'Expect it by Friday.',
      },
    ],
    judgements: [],
    judgeCalls: [call('replayed'), call('replayed'), call('replayed'), call('replayed')],
  }
  const failures = missedThresholds(result, thresholds)
  return record({
    kind: 'calibration',
    status: failures.length === 0 ? 'pass' : 'fail',
    verdicts: undefined,
    judgeCalls: result.judgeCalls,
    outputPreview: 'gpt-4.1-mini',
    calibration: calibrationRecord(result, thresholds, failures),
  })
}

test('under its test, a calibration shows its outcome, the thresholds missed, the table and the disagreements', () => {
  const lines = renderRecords([calibration({ minKappa: 0.6 })], { indent: '     ', colors: plain })
  expect(lines).toEqual([
    '     ✗ calibration of "gpt-4.1-mini" against "support-agent/refund-labels.jsonl": κ 0.25, accuracy 0.67 [0.30, 0.90], false pass 0.50 (1/2) [0.09, 0.91], false fail 0.25 (1/4) [0.05, 0.70], 6 judgements',
    '       ✗ κ 0.25 is below minKappa 0.6',
    '       criterion                       n  accuracy           κ     false pass               false fail',
    '       Acknowledges the double charge  4  0.75 [0.30, 0.95]  0.50  0.50 (1/2) [0.09, 0.91]  0.00 (0/2) [0.00, 0.66]',
    '       (optional) Gives a timeframe    2  0.50 [0.09, 0.91]  0.00  – (0/0)                  0.50 (1/2) [0.09, 0.91]',
    '       all criteria                    6  0.67 [0.30, 0.90]  0.25  0.50 (1/2) [0.09, 0.91]  0.25 (1/4) [0.05, 0.70]',
    '       ✗ false pass refund-labels.jsonl line 3 Acknowledges the double charge: The output says "double charge".',
    '       ✗ false fail refund-labels.jsonl line 4 Gives a timeframe: No timeframe is given.',
  ])
})

test('a passing calibration counts as a passed assertion and its judge calls in the summary', () => {
  const report: RunReport = {
    skippedTests: 0,
    files: [
      {
        file: 'support-agent/calibration.test.ts',
        tests: [
          {
            name: 'the judge agrees',
            fullName: 'the judge agrees',
            state: 'pass',
            records: [calibration({ maxFalsePass: 0.5 })],
          },
        ],
      },
    ],
  }
  const summary = summariseRun(report, {})
  expect(summary.assertions).toEqual({ total: 1, passed: 1, failed: 0, errored: 0 })
  expect(summary.criteria.total).toBe(0)
  expect(summary.judge).toMatchObject({ calls: 4, replayed: 4 })
  expect(renderMarkdown(report, summary)).toContain(
    '| the judge agrees | calibration of "gpt-4.1-mini" against "support-agent/refund-labels.jsonl" | ✓ κ 0.25, accuracy 0.67 [0.30, 0.90], false pass 0.50 (1/2) [0.09, 0.91], false fail 0.25 (1/4) [0.05, 0.70], 6 judgements |  |',
  )
  const json = JSON.parse(
    JSON.stringify(toJsonReport(report, summary, { complete: true, reasons: [] })),
  )
  const [stored] = json.files[0].tests[0].records
  expect(stored.kind).toBe('calibration')
  expect(stored.calibration).toMatchObject({
    judge: 'gpt-4.1-mini',
    labels: 'support-agent/refund-labels.jsonl',
    thresholds: { maxFalsePass: 0.5 },
    failures: [],
    disagreementCount: 2,
    overall: { n: 6, falsePass: { count: 1, n: 2, value: 0.5 } },
  })
  // p_o = 4/6, p_e = (4/6)² + (2/6)² = 5/9, κ = (1/9) / (4/9) = 0.25
  expect(stored.calibration.overall.kappa).toBeCloseTo(0.25, 12)
  expect(stored.calibration.criteria[1].metrics.falsePass).toEqual({
    count: 0,
    n: 0,
    value: null,
    interval: null,
  })
})

test('a calibration is one annotation, with the thresholds it missed', () => {
  expect(recordAnnotation(calibration({ minKappa: 0.6 }))).toEqual({
    type: 'rubricate',
    message:
      'calibration of "gpt-4.1-mini" against "support-agent/refund-labels.jsonl" failed: kappa 0.25, false pass 0.5, false fail 0.25, n 6: κ 0.25 is below minKappa 0.6',
  })
})
