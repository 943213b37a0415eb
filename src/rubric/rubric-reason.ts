import type { Verdict } from '../records/records'
import { verdictTag } from '../records/verdict-words'

/** The reason of a run that had no rubric to check. */
export const NO_RUBRIC_REASON = 'No rubric was provided, so the rubric check passed by default.'

/**
 * The criteria that decide pass or fail: the required ones, or all of them when none is marked
 * required (a rubric of only optional criteria would otherwise always pass). Under
 * `scoring: 'fraction'` (verdicts with a weight) only the criteria marked required gate: the share
 * and its threshold decide for the rest.
 * @internal
 */
export function gatingVerdicts(verdicts: readonly Verdict[]): Verdict[] {
  const required = verdicts.filter((verdict) => verdict.required)
  return required.length > 0 || isFractionScored(verdicts) ? required : [...verdicts]
}

/** True for the verdicts of a rubric scored with `scoring: 'fraction'`. @internal */
export function isFractionScored(verdicts: readonly Verdict[]): boolean {
  return verdicts.some((verdict) => verdict.weight !== undefined)
}

/** The weighted share of criteria met, 0 to 1. @internal */
export function weightedShare(verdicts: readonly Verdict[]): number {
  const total = verdicts.reduce((sum, verdict) => sum + (verdict.weight ?? 1), 0)
  const met = verdicts
    .filter((verdict) => verdict.satisfied)
    .reduce((sum, verdict) => sum + (verdict.weight ?? 1), 0)
  return total === 0 ? 0 : met / total
}

/**
 * The reason text an agent gets as feedback (ARCHITECTURE.md §6): a header that counts unmet
 * gating criteria, one entry per criterion with its reasoning, then the overall assessment.
 * @internal
 */
export function rubricReason(
  verdicts: readonly Verdict[],
  overallAssessment: string | undefined,
  threshold?: number | undefined,
): string {
  const anyRequired = verdicts.some((verdict) => verdict.required)
  const gating = gatingVerdicts(verdicts)
  const unmet = gating.filter((verdict) => !verdict.satisfied).length
  const kind = anyRequired ? 'required ' : ''
  const header = isFractionScored(verdicts)
    ? fractionHeader(verdicts, unmet, threshold ?? 1)
    : unmet === 0
      ? `✅ Rubric satisfied: every ${kind}criterion is met.`
      : `❌ Rubric not satisfied: ${unmet} of ${gating.length} ${kind}${gating.length === 1 ? 'criterion' : 'criteria'} unmet.`
  const entries = verdicts.map((verdict) => {
    const mark = verdict.satisfied ? '✅' : '❌'
    const reasoning = verdict.reasoning.trim().replace(/\n/g, '\n     ')
    return `${mark} ${verdictTag(verdict)} ${verdict.criterion}\n   → ${reasoning}`
  })
  const parts = [header, entries.join('\n')]
  if (overallAssessment?.trim()) parts.push(overallAssessment.trim())
  return parts.join('\n\n')
}

function fractionHeader(verdicts: readonly Verdict[], unmetRequired: number, threshold: number) {
  const share = formatShare(weightedShare(verdicts))
  const reached = weightedShare(verdicts) >= threshold
  if (unmetRequired > 0) {
    return `❌ Rubric not satisfied: ${unmetRequired} required ${unmetRequired === 1 ? 'criterion' : 'criteria'} unmet (share ${share}, threshold ${formatShare(threshold)}).`
  }
  return reached
    ? `✅ Rubric satisfied: share ${share} of the criteria met, threshold ${formatShare(threshold)}.`
    : `❌ Rubric not satisfied: share ${share} of the criteria met, below the threshold ${formatShare(threshold)}.`
}

/** A share or threshold: at most two decimals, no trailing zeros. @internal */
export function formatShare(value: number): string {
  return String(Math.round(value * 100) / 100)
}
