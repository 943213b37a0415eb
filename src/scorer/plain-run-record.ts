import { isRubricateError, rootCause, ScorerRunError } from '../errors'
import { messages } from '../messages'
import { recordedTexts, textPreview } from '../output'
import type { JudgeCall, RubricateRecord, Verdict } from '../records/records'
import type { ScorerRun } from './types'

/**
 * The record of a plain `scorer.run()` (ARCHITECTURE.md §3), so the reporter shows it as it shows
 * `toPassScorer`: a run with `passed` (a rubric scorer) is judged on it, any other on
 * `score >= 1`, as `toPassScorer` does without a threshold. A rejected run is `error`, with the
 * judge calls it made. The record only reports: it never fails the test.
 * @internal
 */
export function plainRunRecord(
  scorerId: string,
  run: ScorerRun,
  outcome: unknown,
  durationMs: number,
): RubricateRecord {
  const record: RubricateRecord = {
    v: 1,
    kind: 'scorer',
    status: 'error',
    negated: false,
    judgeCalls: [],
    durationMs: Math.round(durationMs),
    ...recordedTexts(textPreview(run?.output), run?.input),
    scorerId,
  }
  if (outcome instanceof Error || isRubricateError(outcome)) {
    const cause = rootCause(outcome) as { code?: unknown; message?: unknown }
    record.error = {
      code: typeof cause?.code === 'string' ? cause.code : 'RUBRICATE_SCORER_RUN',
      message: String(cause?.message ?? outcome),
    }
    const partial = outcome instanceof ScorerRunError ? outcome.result : undefined
    record.judgeCalls = (partial?.judgeCalls as JudgeCall[] | undefined) ?? []
    return record
  }
  const result = outcome as {
    score?: unknown
    passed?: unknown
    reason?: unknown
    notScorable?: { reason?: string | undefined }
    verdicts?: Verdict[]
    judgeCalls?: JudgeCall[]
  }
  record.judgeCalls = result.judgeCalls ?? []
  if (typeof result.reason === 'string') record.reason = result.reason
  if (result.verdicts) record.verdicts = result.verdicts
  if (typeof result.score === 'number') record.score = result.score
  const passed =
    typeof result.passed === 'boolean'
      ? result.passed
      : typeof result.score === 'number'
        ? result.score >= 1
        : undefined
  if (passed === undefined) {
    // Not scorable, or no score: neither a pass nor a fail, said in the scorer's words.
    const unscored = result.notScorable
    record.error = {
      code: 'RUBRICATE_USAGE',
      message: messages.scorerCouldNotScore(scorerId, unscored?.reason),
    }
    return record
  }
  record.status = passed ? 'pass' : 'fail'
  if (typeof result.passed !== 'boolean') record.threshold = 1
  return record
}
