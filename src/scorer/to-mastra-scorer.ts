import { UsageError } from '../errors'
import { messages } from '../messages'
import type { ScorerRun } from './types'

/** A scorer `toMastraScorer` can hand to Mastra: rubricate's, a rubric scorer, an adapted one. */
export interface ScorerForMastra {
  readonly id?: string | undefined
  readonly name?: string | undefined
  readonly description?: string | undefined
  run(run: ScorerRun): Promise<{
    score?: number | undefined
    reason?: string | undefined
    notScorable?: { reason?: string | undefined } | undefined
  }>
}

/** What rubricate's scorer produced inside the Mastra scorer's one preprocess step. */
export interface ScorerForMastraResult {
  score?: number | undefined
  reason?: string | undefined
  notScorable?: { reason?: string | undefined } | undefined
}

/**
 * Mastra's `createScorer` from `@mastra/core/evals`, as far as {@link toMastraScorer} uses it:
 * one preprocess step, a score and a reason. rubricate does not import Mastra; the function is
 * passed in, so the scorer built is Mastra's own class.
 */
export type MastraCreateScorer<TScorer> = (config: {
  id: string
  name?: string
  description: string
}) => {
  preprocess(step: (context: { run: any }) => Promise<ScorerForMastraResult>): {
    generateScore(step: (context: { results: { preprocessStepResult: any } }) => any): {
      generateReason(step: (context: { results: { preprocessStepResult: any } }) => string): TScorer
    }
  }
}

// Mastra's not-scorable sentinel carries this global brand so that every copy of @mastra/core
// knows it (@mastra/core/evals `notScorable`); a scorer skipped here is skipped there, not a 0.
const MASTRA_NOT_SCORABLE = Symbol.for('mastra.evals.notScorable')

/**
 * Turn a rubricate scorer into a Mastra scorer, for a Mastra `Agent`'s `scorers`, its
 * `isTaskComplete`, or `new Mastra({ scorers })`. Mastra's scorer type is a class with private
 * fields, so no other object can have its type; this builds an instance with Mastra's own
 * `createScorer` (passed in: rubricate does not depend on Mastra) whose run is rubricate's run.
 * A not-scorable result stays not scorable in Mastra.
 *
 * @example
 * import { createScorer } from '@mastra/core/evals'
 * const agent = new Agent({ ..., scorers: { tone: { scorer: toMastraScorer(tone, createScorer) } } })
 */
export function toMastraScorer<TScorer>(
  scorer: ScorerForMastra,
  createScorer: MastraCreateScorer<TScorer>,
): TScorer {
  if (typeof scorer?.run !== 'function') {
    throw new UsageError(messages.toMastraScorerNotScorer(scorer))
  }
  if (typeof createScorer !== 'function') {
    throw new UsageError(messages.toMastraScorerNoFactory(createScorer))
  }
  const id = scorer.id ?? 'scorer'
  const config: { id: string; name?: string; description: string } = {
    id,
    description: scorer.description ?? id,
  }
  if (scorer.name !== undefined) config.name = scorer.name
  return createScorer(config)
    .preprocess(async ({ run }) => {
      const result = await scorer.run(run)
      const out: ScorerForMastraResult = {}
      if (result.score !== undefined) out.score = result.score
      if (result.reason !== undefined) out.reason = result.reason
      if (result.notScorable) out.notScorable = result.notScorable
      return out
    })
    .generateScore(({ results }) => {
      const result = results.preprocessStepResult as ScorerForMastraResult
      if (result.notScorable || result.score === undefined) {
        return { [MASTRA_NOT_SCORABLE]: true, reason: result.notScorable?.reason ?? result.reason }
      }
      return result.score
    })
    .generateReason(
      ({ results }) => (results.preprocessStepResult as ScorerForMastraResult).reason ?? '',
    )
}
