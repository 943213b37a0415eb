import type { Verdict } from '../records'

/** The reason of a run that had no rubric to check. */
export const NO_RUBRIC_REASON = 'No rubric was provided, so the rubric check passed by default.'

/**
 * The criteria that decide pass or fail: the required ones, or all of them when none is marked
 * required (a rubric of only optional criteria would otherwise always pass).
 * @internal
 */
export function gatingVerdicts(verdicts: readonly Verdict[]): Verdict[] {
  const required = verdicts.filter((verdict) => verdict.required)
  return required.length > 0 ? required : [...verdicts]
}

/**
 * The reason text an agent gets as feedback (DESIGN section 6): a header that counts unmet
 * gating criteria, one entry per criterion with its reasoning, then the overall assessment.
 * @internal
 */
export function rubricReason(
  verdicts: readonly Verdict[],
  overallAssessment: string | undefined,
): string {
  const anyRequired = verdicts.some((verdict) => verdict.required)
  const gating = gatingVerdicts(verdicts)
  const unmet = gating.filter((verdict) => !verdict.satisfied).length
  const kind = anyRequired ? 'required ' : ''
  const header =
    unmet === 0
      ? `✅ Rubric satisfied: every ${kind}criterion is met.`
      : `❌ Rubric not satisfied: ${unmet} of ${gating.length} ${kind}${gating.length === 1 ? 'criterion' : 'criteria'} unmet.`
  const entries = verdicts.map((verdict) => {
    const mark = verdict.satisfied ? '✅' : '❌'
    const tag = verdict.required ? 'required' : 'optional'
    const reasoning = verdict.reasoning.trim().replace(/\n/g, '\n     ')
    return `${mark} [${tag}] ${verdict.criterion}\n   → ${reasoning}`
  })
  const parts = [header, entries.join('\n')]
  if (overallAssessment?.trim()) parts.push(overallAssessment.trim())
  return parts.join('\n\n')
}
