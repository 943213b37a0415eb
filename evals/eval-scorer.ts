// The one place that turns what `describeEval({ scorers })` accepts into one shape: rubricate
// scorers (anything with `run()`) as they are, and evalite/autoevals-shaped functions that return
// a number, `{ score, metadata? }`, or `null` to skip the row; either one alone or in a gate entry
// `{ scorer, threshold?, direction?, range?, mean?, minCoverage?, weight? }`.
import { isScorer, scorerName } from '../matchers/check-options'
import type { ScorerLike } from '../matchers/types'
import { rejectUnknownKeys } from '../src/config/known-keys'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { checkScoreRange, declaredScoreRange, type ScoreRange } from '../src/scorer/score-range'
import type { EvalScorer, EvalScorerArgs } from './types'

/** A function scorer's score for one row, or `null` when it skipped the row. @internal */
export interface FunctionScore {
  score: number
  reason?: string | undefined
}

/** A scorer's own gates, from its entry: all absent for a bare scorer. @internal */
export interface ScorerGates {
  /** The row's threshold for this scorer; absent: the eval's `threshold`. */
  threshold?: number | undefined
  direction: 'min' | 'max'
  /** The scores it gives, when declared (its entry's `range`, else its own): absent, `[0, 1]`. */
  range?: ScoreRange | undefined
  /** The gate on its mean over the suite's scored trials. */
  mean?: number | undefined
  /** The share of trials its mean gate needs scored; absent: the eval's `minCoverage`. */
  minCoverage?: number | undefined
  /** Its weight in the eval's weighted `mean` gate. */
  weight: number
}

/** A scorer of `describeEval`, normalised. @internal */
export type NormalisedScorer = ScorerGates &
  (
    | { kind: 'scorer'; id: string; scorer: ScorerLike }
    | {
        kind: 'function'
        id: string
        score(args: EvalScorerArgs<any, unknown>): Promise<FunctionScore | null>
      }
  )

const GATE_KEYS = ['scorer', 'threshold', 'direction', 'range', 'mean', 'minCoverage', 'weight']

/** Check and normalise the `scorers` option. @internal */
export function normaliseScorers(scorers: readonly unknown[]): NormalisedScorer[] {
  const normalised = scorers.map((value, index) => normaliseEntry(value, index))
  const seen = new Set<string>()
  for (const scorer of normalised) {
    // Scores, means and gates are kept by id: two scorers of one id would pool their scores.
    if (seen.has(scorer.id)) throw new UsageError(messages.evalDuplicateScorer(scorer.id))
    seen.add(scorer.id)
  }
  return normalised
}

function normaliseEntry(value: unknown, index: number): NormalisedScorer {
  if (isScorer(value) || typeof value === 'function') {
    const scorer = normaliseScorer(value, index)
    const range = declaredScoreRange(scorer.id, value)
    return { ...scorer, direction: 'min', weight: 1, ...(range ? { range } : {}) }
  }
  if (typeof value !== 'object' || value === null || !('scorer' in value)) {
    throw new UsageError(messages.evalBadScorer(index, value))
  }
  const where = `describeEval() option "scorers", item ${index + 1}`
  rejectUnknownKeys(where, value, GATE_KEYS)
  const entry = value as Record<string, unknown>
  const scorer = normaliseScorer(entry.scorer, index)
  const number = (name: string, check: (n: number) => boolean): number | undefined => {
    const given = entry[name]
    if (given === undefined) return undefined
    if (typeof given !== 'number' || !Number.isFinite(given) || !check(given)) {
      throw new UsageError(messages.evalBadGate(scorer.id, name, given))
    }
    return given
  }
  const direction = entry.direction ?? 'min'
  if (direction !== 'min' && direction !== 'max') {
    throw new UsageError(
      messages.invalidChoice(`${where}: "direction"`, entry.direction, ['min', 'max']),
    )
  }
  const threshold = number('threshold', () => true)
  if (direction === 'max' && threshold === undefined) {
    throw new UsageError(messages.maxDirectionNeedsThreshold(`${where} ("${scorer.id}")`))
  }
  const range =
    entry.range !== undefined
      ? checkScoreRange(`${where}: "range"`, entry.range)
      : declaredScoreRange(scorer.id, entry.scorer)
  return {
    ...scorer,
    threshold,
    direction,
    ...(range ? { range } : {}),
    mean: number('mean', () => true),
    minCoverage: number('minCoverage', (n) => n >= 0 && n <= 1),
    weight: number('weight', (n) => n >= 0) ?? 1,
  }
}

function normaliseScorer(
  value: unknown,
  index: number,
):
  | { kind: 'scorer'; id: string; scorer: ScorerLike }
  | {
      kind: 'function'
      id: string
      score(args: EvalScorerArgs<any, unknown>): Promise<FunctionScore | null>
    } {
  if (isScorer(value)) return { kind: 'scorer', id: scorerName(value), scorer: value }
  if (typeof value !== 'function') throw new UsageError(messages.evalBadScorer(index, value))
  const fn = value as Extract<EvalScorer, (...args: never[]) => unknown>
  const named = (fn as { id?: unknown }).id
  const id = typeof named === 'string' && named !== '' ? named : fn.name || `scorer ${index + 1}`
  return {
    kind: 'function',
    id,
    async score(args) {
      const result = await fn(args)
      if (result === null) return null
      // Any number: whether it is finite and in range is the score contract's to say, in the one
      // place every scorer form reaches (toPassScorer), with the row it came from.
      if (typeof result === 'number') return { score: result }
      if (typeof result === 'object' && result !== undefined && typeof result.score === 'number') {
        return { score: result.score, reason: reasonOf(result.metadata) }
      }
      throw new UsageError(messages.evalScorerNoScore(id, result))
    },
  }
}

// autoevals puts a judge's explanation in `metadata.rationale`; others use `reason`.
function reasonOf(metadata: Record<string, unknown> | undefined): string | undefined {
  if (!metadata) return undefined
  for (const field of ['rationale', 'reason']) {
    if (typeof metadata[field] === 'string') return metadata[field] as string
  }
  return undefined
}
