// Pure: whether a calibration meets its thresholds, and the record an assertion leaves.
import { messages } from '../messages'
import type { CalibrationRecord, CalibrationThresholds } from '../records/records'
import type { CalibrationResult } from './calibrate-judge'

/** Disagreements kept in a record: enough to act on, few enough for `task.meta`. */
const RECORDED_DISAGREEMENTS = 5

/**
 * The thresholds a calibration misses, as sentences (empty: it passes). A rate is compared by its
 * point estimate; a κ or a rate that cannot be computed misses its threshold, never meets it.
 * @internal
 */
export function missedThresholds(
  result: Pick<CalibrationResult, 'overall'>,
  thresholds: CalibrationThresholds,
): string[] {
  const { overall } = result
  const missed: string[] = []
  const { minKappa, maxFalsePass, maxFalseFail, minAccuracy } = thresholds
  if (minKappa !== undefined) {
    if (overall.kappa === null) {
      missed.push(messages.calibrationKappaUndefined(overall.kappaUndefined ?? '', minKappa))
    } else if (overall.kappa < minKappa) {
      missed.push(messages.calibrationKappaBelow(shownApart(overall.kappa, minKappa), minKappa))
    }
  }
  for (const [name, option, max, rate] of [
    ['false-pass', 'maxFalsePass', maxFalsePass, overall.falsePass],
    ['false-fail', 'maxFalseFail', maxFalseFail, overall.falseFail],
  ] as const) {
    if (max === undefined) continue
    if (rate.value === null) missed.push(messages.calibrationRateUnmeasured(name, option, max))
    else if (rate.value > max) {
      missed.push(
        messages.calibrationRateAbove(
          name,
          option,
          shownApart(rate.value, max),
          rate.count,
          rate.n,
          max,
        ),
      )
    }
  }
  if (minAccuracy !== undefined) {
    const value = overall.accuracy.value
    if (value === null || value < minAccuracy) {
      missed.push(
        messages.calibrationAccuracyBelow(
          value === null ? '–' : shownApart(value, minAccuracy),
          minAccuracy,
        ),
      )
    }
  }
  return missed
}

/**
 * A value that missed a threshold, rounded to two decimals unless that would print the threshold
 * itself ("κ 0.65 is below minKappa 0.65"): then with as many decimals as tell the two apart.
 */
function shownApart(value: number, threshold: number): string {
  for (let digits = 2; digits < 12; digits++) {
    const shown = value.toFixed(digits)
    if (Number(shown) !== threshold) return shown
  }
  return String(value)
}

/** The plain-JSON record of a calibration assertion. @internal */
export function calibrationRecord(
  result: CalibrationResult,
  thresholds: CalibrationThresholds,
  failures: string[],
): CalibrationRecord {
  return {
    judge: result.judge,
    labels: result.source,
    examples: result.examples,
    samples: result.samples,
    overall: result.overall,
    ...(result.selfAgreement && { selfAgreement: result.selfAgreement }),
    criteria: result.criteria.map(({ criterion, required, metrics }) => ({
      criterion,
      required,
      metrics,
    })),
    thresholds,
    failures,
    disagreementCount: result.disagreements.length,
    disagreements: result.disagreements
      .slice(0, RECORDED_DISAGREEMENTS)
      .map(({ where, criterion, kind, reasoning, output, note }) => ({
        where,
        criterion,
        kind,
        reasoning,
        output,
        ...(note !== undefined && { note }),
      })),
  }
}
