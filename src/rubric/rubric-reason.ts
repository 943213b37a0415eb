import type { Verdict } from '../records/records'
import {
  type CriterionMedium,
  criterionBlock,
  type RubricCounts,
  rubricOutcome,
} from '../records/verdict-words'

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
 * The reason text an agent gets as feedback (ARCHITECTURE.md §6): the rubric's outcome, one entry
 * per criterion with its reasoning, then the overall assessment.
 * @internal
 */
export function rubricReason(
  verdicts: readonly Verdict[],
  overallAssessment: string | undefined,
  threshold?: number | undefined,
): string {
  const counts = rubricCounts(verdicts, threshold ?? 1)
  const header = `${counts.unmet === 0 && (counts.share?.reached ?? true) ? '✅' : '❌'} ${rubricOutcome(counts)}`
  const entries = verdicts.map((verdict) => criterionBlock(verdict, FEEDBACK).join('\n'))
  const parts = [header, entries.join('\n')]
  if (overallAssessment?.trim()) parts.push(overallAssessment.trim())
  return parts.join('\n\n')
}

/** What the outcome line of `verdicts` counts (see {@link rubricOutcome}). @internal */
export function rubricCounts(verdicts: readonly Verdict[], threshold: number): RubricCounts {
  const gating = gatingVerdicts(verdicts)
  const share = weightedShare(verdicts)
  return {
    unmet: gating.filter((verdict) => !verdict.satisfied).length,
    gating: gating.length,
    anyRequired: verdicts.some((verdict) => verdict.required),
    share: isFractionScored(verdicts)
      ? {
          share: formatShare(share),
          threshold: formatShare(threshold),
          reached: share >= threshold,
        }
      : undefined,
  }
}

// The agent's feedback shows no samples: its text is part of the agent's next request, so of its
// cassette key.
const FEEDBACK: CriterionMedium = {
  mark: (state) => (state === 'met' ? '✅' : '❌'),
  tag: (tag) => tag,
  criterion: (text) => text,
  reasoning: (text) => `   → ${text.trim().replace(/\n/g, '\n     ')}`,
  samples: () => '',
}

/** A share or threshold: at most two decimals, no trailing zeros. @internal */
export function formatShare(value: number): string {
  return String(Math.round(value * 100) / 100)
}
