// Hand-computed values for κ, Wilson intervals and the error rates, degenerate cases included.
import { expect, test } from 'vitest'
import {
  agreementMetrics,
  cohensKappa,
  type JudgedLabel,
  selfAgreement,
  wilsonInterval,
} from '../../src/calibrate/agreement-metrics'
import { missedThresholds } from '../../src/calibrate/calibration-gate'

function cases(cells: { tp?: number; fp?: number; ff?: number; tf?: number }): JudgedLabel[] {
  const repeat = (n: number, verdict: boolean, label: boolean) =>
    Array.from({ length: n }, () => ({ verdict, label }))
  return [
    ...repeat(cells.tp ?? 0, true, true),
    ...repeat(cells.fp ?? 0, true, false),
    ...repeat(cells.ff ?? 0, false, true),
    ...repeat(cells.tf ?? 0, false, false),
  ]
}

const round = (value: number | null | undefined) =>
  value === null || value === undefined ? value : Math.round(value * 10_000) / 10_000

test('κ, accuracy and the rates of a 20/5/10/15 table match the hand computation', () => {
  // p_o = 35/50 = 0.7; p_e = 0.5 × 0.6 + 0.5 × 0.4 = 0.5; κ = (0.7 − 0.5) / (1 − 0.5) = 0.4
  const metrics = agreementMetrics(cases({ tp: 20, fp: 5, ff: 10, tf: 15 }))
  expect(metrics.n).toBe(50)
  expect(metrics.counts).toEqual({ truePass: 20, falsePass: 5, falseFail: 10, trueFail: 15 })
  expect(round(metrics.kappa)).toBe(0.4)
  expect(metrics.kappaUndefined).toBeUndefined()
  expect(metrics.accuracy).toMatchObject({ count: 35, n: 50, value: 0.7 })
  // 5 judged met of the 20 labelled unmet; 10 judged unmet of the 30 labelled met.
  expect(metrics.falsePass).toMatchObject({ count: 5, n: 20, value: 0.25 })
  expect(metrics.falseFail).toMatchObject({ count: 10, n: 30 })
  expect(round(metrics.falseFail.value)).toBe(0.3333)
})

test('perfect agreement over both values gives κ 1 and rates of 0', () => {
  const metrics = agreementMetrics(cases({ tp: 3, tf: 2 }))
  expect(metrics.kappa).toBe(1)
  expect(metrics.falsePass.value).toBe(0)
  expect(metrics.falseFail.value).toBe(0)
})

test('Wilson 95% intervals match the published values for 8/10, 0/10, 10/10 and 1/1', () => {
  const interval = (count: number, n: number) => {
    const value = wilsonInterval(count, n)
    return value && { low: round(value.low), high: round(value.high) }
  }
  expect(interval(8, 10)).toEqual({ low: 0.4902, high: 0.9433 })
  expect(interval(0, 10)).toEqual({ low: 0, high: 0.2775 })
  expect(interval(10, 10)).toEqual({ low: 0.7225, high: 1 })
  expect(interval(1, 1)).toEqual({ low: 0.2065, high: 1 })
  expect(wilsonInterval(0, 0)).toBeNull()
})

test('every label the same: κ is 0 when the judge varies, and the rate with no denominator is null', () => {
  // All labelled met, 9 judged met: p_o = 0.9, p_e = 0.9 × 1 + 0.1 × 0 = 0.9, κ = 0.
  const metrics = agreementMetrics(cases({ tp: 9, ff: 1 }))
  expect(round(metrics.kappa)).toBe(0)
  expect(metrics.accuracy.value).toBe(0.9)
  expect(metrics.falsePass).toEqual({ count: 0, n: 0, value: null, interval: null })
  expect(metrics.falseFail).toMatchObject({ count: 1, n: 10, value: 0.1 })
})

test('every verdict the same: κ is 0 and the false-pass rate is 1 when the judge passes everything', () => {
  // All judged met, 6 labelled met: p_o = 0.6, p_e = 1 × 0.6 + 0 × 0.4 = 0.6, κ = 0.
  const metrics = agreementMetrics(cases({ tp: 6, fp: 4 }))
  expect(round(metrics.kappa)).toBe(0)
  expect(metrics.falsePass).toMatchObject({ count: 4, n: 4, value: 1 })
  expect(metrics.falseFail).toMatchObject({ count: 0, n: 6, value: 0 })
})

test('every label and every verdict the same value: κ is null, with the reason, never 1', () => {
  const met = agreementMetrics(cases({ tp: 5 }))
  expect(met.kappa).toBeNull()
  expect(met.kappaUndefined).toBe(
    'every label and every verdict is "met", so agreement by chance is 1',
  )
  expect(met.accuracy.value).toBe(1)
  const unmet = cohensKappa({ truePass: 0, falsePass: 0, falseFail: 0, trueFail: 4 })
  expect(unmet).toEqual({
    kappa: null,
    undefinedReason: 'every label and every verdict is "unmet", so agreement by chance is 1',
  })
})

test('opposite constant values: κ is null, not the 0 that the formula gives and minKappa -1 accepts', () => {
  // p_e = 0, p_o = 0: (0 − 0) / (1 − 0) = 0, yet neither rater ever varied.
  const opposite = agreementMetrics(cases({ ff: 3 }))
  expect(opposite.kappa).toBeNull()
  expect(opposite.kappaUndefined).toBe(
    'every verdict is "unmet" and every label "met", so neither varies',
  )
  expect(missedThresholds({ overall: opposite }, { minKappa: -1 })).toEqual([
    'κ is undefined (every verdict is "unmet" and every label "met", so neither varies), so minKappa -1 cannot be met: label examples the judge should pass and examples it should fail',
  ])
})

test('n = 1: κ is null whether the judge agrees or not; intervals are still given', () => {
  const agree = agreementMetrics(cases({ tf: 1 }))
  expect(agree.kappa).toBeNull()
  expect(agree.accuracy).toMatchObject({ count: 1, n: 1, value: 1 })
  expect(round(agree.accuracy.interval?.low)).toBe(0.2065)
  const disagree = agreementMetrics(cases({ fp: 1 }))
  expect(disagree.kappa).toBeNull()
  expect(missedThresholds({ overall: disagree }, { minKappa: -1 })).toHaveLength(1)
  expect(disagree.falsePass).toMatchObject({ count: 1, n: 1, value: 1 })
})

test('n = 0: κ is null and every rate is null', () => {
  const metrics = agreementMetrics([])
  expect(metrics.kappa).toBeNull()
  expect(metrics.kappaUndefined).toBe('no labelled judgement')
  expect(metrics.accuracy.value).toBeNull()
})

test('self-agreement counts unanimous judgements and averages the agreeing pairs of samples', () => {
  // 3/3 and 0/3 are unanimous; 2/3 agrees on 1 of 3 pairs: (1 + 1/3 + 1) / 3 = 7/9.
  const agreement = selfAgreement(
    [
      { satisfied: 3, total: 3 },
      { satisfied: 2, total: 3 },
      { satisfied: 0, total: 3 },
    ],
    3,
  )
  expect(agreement.samples).toBe(3)
  expect(agreement.unanimous).toMatchObject({ count: 2, n: 3 })
  expect(round(agreement.pairwise)).toBe(round(7 / 9))
})

test('a value just past a threshold is shown with the digits that tell it from the threshold', () => {
  const overall = {
    ...agreementMetrics(cases({ tp: 5, tf: 5 })),
    kappa: 0.6499,
    accuracy: { count: 0, n: 1, value: 0.8999, interval: null },
  }
  const falsePass = { count: 1, n: 1, value: 0.1004, interval: null }
  expect(
    missedThresholds(
      { overall: { ...overall, falsePass } },
      { minKappa: 0.65, minAccuracy: 0.9, maxFalsePass: 0.1 },
    ),
  ).toEqual([
    'κ 0.6499 is below minKappa 0.65',
    'the false-pass rate 0.1004 (1 of 1 judgements labelled unmet were judged met) is above maxFalsePass 0.1',
    'accuracy 0.8999 is below minAccuracy 0.9',
  ])
  // At the threshold exactly, nothing is missed: "below" and "above" are strict in words and code.
  expect(missedThresholds({ overall: { ...overall, kappa: 0.65 } }, { minKappa: 0.65 })).toEqual([])
})
