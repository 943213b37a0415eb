import { judgeCallsOf } from '../errors'
import { outputText, recordedTexts, textPreview } from '../output'
import type { JudgeCall, LoopIterationRecord, RubricateRecord, Verdict } from '../records/records'
import { gatingVerdicts } from '../rubric/rubric-reason'
import type { LoopIteration } from './types'

/**
 * The record of a loop so far (ARCHITECTURE.md §3): one entry per iteration, the judge calls of every check,
 * the latest output and feedback. `pass` once complete; else `error` when the latest check had an
 * errored scorer, `fail` otherwise.
 * @internal
 */
export function loopRecord(
  loopId: string,
  iterations: readonly LoopIteration[],
  durationMs: number,
): RubricateRecord {
  const last = iterations.at(-1)
  const check = last?.check
  const judgeCalls: JudgeCall[] = []
  for (const { check } of iterations) {
    for (const scorer of check.scorers) {
      // An errored scorer's calls are in the partial result its error carries.
      judgeCalls.push(...(scorer.result?.judgeCalls ?? judgeCallsOf(scorer.error)))
    }
  }
  const verdicts: Verdict[] = []
  for (const scorer of check?.scorers ?? []) verdicts.push(...(scorer.result?.verdicts ?? []))
  const status = check?.complete ? 'pass' : check?.scorers.some((s) => s.errored) ? 'error' : 'fail'
  return {
    v: 1,
    kind: 'loop',
    loopId,
    status,
    negated: false,
    verdicts: verdicts.length > 0 ? verdicts : undefined,
    reason: check?.feedback,
    judgeCalls,
    durationMs,
    ...recordedTexts(textPreview(last?.output)),
    iterations: iterations.map(iterationRecord),
  }
}

function iterationRecord({ output, check }: LoopIteration): LoopIterationRecord {
  return {
    iteration: check.iteration,
    complete: check.complete,
    outputPreview: preview(output),
    scorers: check.scorers.map((s) => ({
      id: s.id,
      score: s.score,
      passed: s.passed,
      errored: s.errored,
      reason: s.reason,
      unmet: unmetCriteria(s.result?.verdicts),
    })),
  }
}

/** The gating criteria a rubric scorer found unmet, or undefined when it has no verdicts. */
function unmetCriteria(verdicts: readonly Verdict[] | undefined): string[] | undefined {
  if (!verdicts || verdicts.length === 0) return undefined
  const unmet = gatingVerdicts(verdicts).filter((v) => !v.satisfied)
  return unmet.length > 0 ? unmet.map((v) => v.criterion) : undefined
}

/** The first 200 characters of the text a judge would see; never throws. @internal */
export function preview(output: unknown): string {
  try {
    return outputText(output).slice(0, 200)
  } catch {
    return ''
  }
}
