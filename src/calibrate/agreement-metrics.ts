// Pure: agreement between a judge's verdicts and human labels (README: "Calibrate the judge").

import type { AgreementCounts, AgreementMetrics, Rate, SelfAgreement } from '../records/records'

export type { AgreementCounts, AgreementMetrics, Rate, SelfAgreement }

/** One judged case: what the judge said and what the label says. */
export interface JudgedLabel {
  verdict: boolean
  label: boolean
}

const Z95 = 1.959963984540054

/**
 * The Wilson score interval of `count` successes in `n` trials at 95%, clipped to [0, 1].
 * Unlike the normal approximation it stays inside [0, 1] and is not empty at 0 or n.
 *
 * @example
 * wilsonInterval(8, 10) // { low: 0.4902, high: 0.9433 } (rounded)
 */
export function wilsonInterval(count: number, n: number): { low: number; high: number } | null {
  if (n === 0) return null
  const p = count / n
  const z2 = Z95 * Z95
  const denominator = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denominator
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  // At count 0 or n the exact bound is 0 or 1; floating point would leave 1e-17 of noise.
  return {
    low: count === 0 ? 0 : Math.max(0, centre - half),
    high: count === n ? 1 : Math.min(1, centre + half),
  }
}

/** `count` of `n` as a {@link Rate}. */
export function rate(count: number, n: number): Rate {
  return { count, n, value: n === 0 ? null : count / n, interval: wilsonInterval(count, n) }
}

/** Tally judged labels into the four cells. */
export function agreementCounts(cases: readonly JudgedLabel[]): AgreementCounts {
  const counts = { truePass: 0, falsePass: 0, falseFail: 0, trueFail: 0 }
  for (const { verdict, label } of cases) {
    if (verdict && label) counts.truePass++
    else if (verdict) counts.falsePass++
    else if (label) counts.falseFail++
    else counts.trueFail++
  }
  return counts
}

/**
 * Cohen's κ of a 2×2 table: (p_o − p_e) / (1 − p_e). When both raters used one value for every
 * case, the set never tested the judge's ability to tell the two apart: with the same value p_e is
 * 1 and κ is 0/0; with opposite values the formula gives 0, a number a gate as low as
 * `minKappa: -1` would accept. Both are returned as `null` with the reason, never as a number.
 */
export function cohensKappa(counts: AgreementCounts): {
  kappa: number | null
  undefinedReason?: string | undefined
} {
  const { truePass, falsePass, falseFail, trueFail } = counts
  const n = truePass + falsePass + falseFail + trueFail
  if (n === 0) return { kappa: null, undefinedReason: 'no labelled judgement' }
  const observed = (truePass + trueFail) / n
  const judgeMet = (truePass + falsePass) / n
  const labelMet = (truePass + falseFail) / n
  const chance = judgeMet * labelMet + (1 - judgeMet) * (1 - labelMet)
  const name = (met: number) => (met === 1 ? 'met' : 'unmet')
  if (chance >= 1) {
    return {
      kappa: null,
      undefinedReason: `every label and every verdict is "${name(labelMet)}", so agreement by chance is 1`,
    }
  }
  if ((judgeMet === 0 || judgeMet === 1) && (labelMet === 0 || labelMet === 1)) {
    return {
      kappa: null,
      undefinedReason: `every verdict is "${name(judgeMet)}" and every label "${name(labelMet)}", so neither varies`,
    }
  }
  return { kappa: (observed - chance) / (1 - chance) }
}

/** Accuracy, κ and the false-pass and false-fail rates of judged labels. */
export function agreementMetrics(cases: readonly JudgedLabel[]): AgreementMetrics {
  const counts = agreementCounts(cases)
  const { truePass, falsePass, falseFail, trueFail } = counts
  const n = cases.length
  const { kappa, undefinedReason } = cohensKappa(counts)
  return {
    n,
    counts,
    accuracy: rate(truePass + trueFail, n),
    kappa,
    ...(undefinedReason === undefined ? {} : { kappaUndefined: undefinedReason }),
    falsePass: rate(falsePass, falsePass + trueFail),
    falseFail: rate(falseFail, falseFail + truePass),
  }
}

/**
 * Self-agreement of a judge from the per-judgement votes: `satisfied` of `total` samples said met.
 */
export function selfAgreement(
  votes: readonly { satisfied: number; total: number }[],
  samples: number,
): SelfAgreement {
  let unanimous = 0
  let pairSum = 0
  let judged = 0
  for (const { satisfied, total } of votes) {
    if (satisfied === 0 || satisfied === total) unanimous++
    if (total < 2) continue
    const pairs = (total * (total - 1)) / 2
    const agreeing =
      (satisfied * (satisfied - 1)) / 2 + ((total - satisfied) * (total - satisfied - 1)) / 2
    pairSum += agreeing / pairs
    judged++
  }
  return {
    samples,
    unanimous: rate(unanimous, votes.length),
    pairwise: judged === 0 ? null : pairSum / judged,
  }
}
