// The one place that turns what `describeEval({ scorers })` accepts into one shape: rubricate
// scorers (anything with `run()`) as they are, and evalite/autoevals-shaped functions that return
// a number, `{ score, metadata? }`, or `null` to skip the row.
import { isScorer, scorerName } from '../matchers/check-options'
import type { ScorerLike } from '../matchers/types'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { EvalScorer, EvalScorerArgs } from './types'

/** A function scorer's score for one row, or `null` when it skipped the row. @internal */
export interface FunctionScore {
  score: number
  reason?: string | undefined
}

/** A scorer of `describeEval`, normalised. @internal */
export type NormalisedScorer =
  | { kind: 'scorer'; id: string; scorer: ScorerLike }
  | {
      kind: 'function'
      id: string
      score(args: EvalScorerArgs<any, unknown>): Promise<FunctionScore | null>
    }

/** Check and normalise the `scorers` option. @internal */
export function normaliseScorers(scorers: readonly unknown[]): NormalisedScorer[] {
  return scorers.map((value, index) => normaliseScorer(value, index))
}

function normaliseScorer(value: unknown, index: number): NormalisedScorer {
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
      if (typeof result === 'number' && Number.isFinite(result)) return { score: result }
      if (
        typeof result === 'object' &&
        result !== undefined &&
        typeof result.score === 'number' &&
        Number.isFinite(result.score)
      ) {
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
