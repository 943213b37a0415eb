import type { MatcherState } from 'vitest'
import { calibrationRecord, missedThresholds } from '../src/calibrate/calibration-gate'
import { calibrationTable, disagreementLines } from '../src/calibrate/calibration-table'
import { UsageError } from '../src/errors'
import { judgeLabel, parseJudgeInput } from '../src/judge/judge-input'
import { messages } from '../src/messages'
import type { CalibrationThresholds, JudgeInput } from '../src/records/records'
import { cassetteOption, checkOptions } from './check-options'
import { type Evaluation, judgeLine } from './failure-message'
import { runAssertion } from './run-assertion'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

const OPTIONS = [
  'minKappa',
  'maxFalsePass',
  'maxFalseFail',
  'minAccuracy',
  'samples',
  'evaluation',
  'cassettes',
] as const
const THRESHOLDS = ['minKappa', 'maxFalsePass', 'maxFalseFail', 'minAccuracy'] as const
// Disagreements shown in a failure message; the record keeps as many.
const SHOWN_DISAGREEMENTS = 5

/**
 * Calibrate a judge against human labels and pass when it meets every threshold given: Cohen's κ
 * at least `minKappa`, false-pass rate at most `maxFalsePass`, and so on. The labelled set is
 * judged through the cassettes, so a recorded calibration replays offline. There is no `.not`.
 *
 * @example
 * await expect('openai/gpt-4.1-mini').toAgreeWithLabels('evals/labels.jsonl', { minKappa: 0.6, maxFalsePass: 0.1 })
 */
export function toAgreeWithLabels(
  this: MatcherState,
  received: unknown,
  labels: unknown,
  options?: unknown,
): AsyncResult {
  const state = this
  return runAssertion({
    kind: 'calibration',
    matcher: 'toAgreeWithLabels',
    state,
    received,
    expectedLabel: 'labels',
    receivedLabel: 'judge',
    // Never the judge object itself: an endpoint may carry an API key.
    preview: (judge) => judgeLabel(parseJudgeInput(checkJudge(judge))),
    async evaluate(call): Promise<Evaluation> {
      if (state.isNot) throw new UsageError(messages.calibrationNegated())
      const opts = checkOptions('toAgreeWithLabels', options, OPTIONS)
      const cassetteMode = cassetteOption('toAgreeWithLabels', opts.cassettes)
      const thresholds = checkThresholds(opts)
      // Loaded at the first use, not by the setup file (ARCHITECTURE.md §10).
      const { calibrateJudgeWith } = await import('../src/calibrate/calibrate-judge')
      const result = await calibrateJudgeWith(
        {
          judge: received as JudgeInput,
          labels: labels as string,
          samples: opts.samples as number | undefined,
          evaluation: opts.evaluation as 'together' | 'separately' | undefined,
        },
        { cassetteMode, ...call },
      )
      const failures = missedThresholds(result, thresholds)
      return {
        satisfied: failures.length === 0,
        judgeCalls: result.judgeCalls,
        calibration: calibrationRecord(result, thresholds, failures),
      }
    },
    explain: calibrationFailure,
  })
}

function checkJudge(value: unknown): JudgeInput {
  if ((typeof value !== 'string' && typeof value !== 'object') || value === null) {
    throw new UsageError(messages.calibrationNotAJudge(value))
  }
  return value as JudgeInput
}

function checkThresholds(options: Record<string, unknown>): CalibrationThresholds {
  const thresholds: CalibrationThresholds = {}
  for (const name of THRESHOLDS) {
    const value = options[name]
    if (value === undefined) continue
    const low = name === 'minKappa' ? -1 : 0
    if (typeof value !== 'number' || !Number.isFinite(value) || value < low || value > 1) {
      throw new UsageError(messages.calibrationBadThreshold(name, value, low))
    }
    thresholds[name] = value
  }
  if (Object.keys(thresholds).length === 0) throw new UsageError(messages.calibrationNoThreshold())
  return thresholds
}

/** The body of a failed `toAgreeWithLabels`: what was missed, the table, the worst disagreements. */
function calibrationFailure(evaluation: Evaluation): string {
  const record = evaluation.calibration
  if (!record) throw new Error(messages.bug('toAgreeWithLabels() failed without a calibration'))
  const n = record.overall.n
  const lines = [
    messages.calibrationFailed(record.judge, record.labels),
    ...record.failures.map((failure) => `  - ${failure}`),
    '',
    messages.calibrationHeadline(record.judge, record.labels, record.examples, n, record.samples),
    '',
    ...calibrationTable(record),
    '',
    ...disagreementLines(record.disagreements, record.disagreementCount, SHOWN_DISAGREEMENTS),
  ]
  const judge = judgeLine(evaluation.judgeCalls)
  if (judge) lines.push('', judge)
  return lines.join('\n')
}
