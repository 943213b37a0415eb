// The score contract (ARCHITECTURE.md §5): every score that reaches a threshold, a mean, a gate
// or a report is a finite number inside its scorer's declared range, [0, 1] unless declared. The
// one check every scorer form goes through (a function, an object, a Mastra scorer, an adapted
// one): `toPassScorer` calls it on each result, and `describeEval` judges every scorer through it.
import { UsageError } from '../errors'
import { messages } from '../messages'

/** The lowest and the highest score a scorer gives, both included. */
export type ScoreRange = readonly [min: number, max: number]

/** The range of a scorer that declares none. @internal */
export const DEFAULT_SCORE_RANGE: ScoreRange = [0, 1]

/** Check a range given by the user (`where` names the option): two finite numbers, min < max. @internal */
export function checkScoreRange(where: string, value: unknown): ScoreRange {
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((n) => typeof n === 'number' && Number.isFinite(n)) ||
    !(value[0] < value[1])
  ) {
    throw new UsageError(messages.badScoreRange(where, value))
  }
  return [value[0], value[1]]
}

/**
 * The range a scorer declares on itself (a `range: [min, max]` property, on an object or a
 * function), checked; undefined when it declares none. @internal
 */
export function declaredScoreRange(id: string, scorer: unknown): ScoreRange | undefined {
  if ((typeof scorer !== 'object' && typeof scorer !== 'function') || scorer === null)
    return undefined
  const range = (scorer as { range?: unknown }).range
  return range === undefined ? undefined : checkScoreRange(`the scorer "${id}"'s "range"`, range)
}

/**
 * The score, when it is a finite number within `range`; otherwise a usage error that names the
 * scorer, the row (when there is one) and the value, so that no gate, threshold or mean is
 * computed from it. @internal
 */
export function checkScore(
  id: string,
  score: unknown,
  range: ScoreRange = DEFAULT_SCORE_RANGE,
  row?: string | undefined,
): number {
  if (
    typeof score === 'number' &&
    Number.isFinite(score) &&
    score >= range[0] &&
    score <= range[1]
  ) {
    return score
  }
  throw new UsageError(messages.scoreOutOfRange(id, score, range, row))
}

/** A score in its range as a share of it, from 0 (the range's min) to 1 (its max). @internal */
export function scoreShare(score: number, range: ScoreRange = DEFAULT_SCORE_RANGE): number {
  return (score - range[0]) / (range[1] - range[0])
}
