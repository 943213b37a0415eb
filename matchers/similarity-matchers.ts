import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { withRunChoices } from '../src/runtime/run-choices'
import { checkOptions } from './check-options'
import { runScorerMatcher } from './scorer-matcher'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

/**
 * The value's embedding is at least `threshold` (cosine, default 0.8) close to `expected`'s,
 * through the `embedder` given. The embedding calls are recorded and replayed like judge calls.
 *
 * @example
 * await expect(reply).toBeSemanticallySimilarTo('Your refund is on its way.', { embedder: 'openai/text-embedding-3-small' })
 */
export function toBeSemanticallySimilarTo(
  this: MatcherState,
  received: unknown,
  expected: unknown,
  options?: unknown,
): AsyncResult {
  return runScorerMatcher(this, received, options, {
    matcher: 'toBeSemanticallySimilarTo',
    expectedLabel: 'expected',
    scorerId: 'semantic-similarity',
    async run(opts, choices) {
      checkOptions('toBeSemanticallySimilarTo', options, ['embedder', 'threshold', 'cassettes'])
      const text = expectedString('toBeSemanticallySimilarTo', expected)
      if (opts.embedder === undefined) {
        throw new UsageError(
          messages.invalidEmbedder('toBeSemanticallySimilarTo() option "embedder"', undefined),
        )
      }
      const { createSimilarityScorer } = await import('../src/similarity/similarity-scorer')
      const scorer = createSimilarityScorer({
        embedder: opts.embedder as never,
        expected: text,
        threshold: opts.threshold as number | undefined,
      })
      return scorer.run(withRunChoices({ output: received }, choices))
    },
  })
}

/**
 * The value is at least `threshold` (default 0.8) similar to `expected` by edit distance: 1 minus
 * the Levenshtein distance over the longer text's length. No model is called.
 *
 * @example
 * await expect(reply).toBeSimilarByEditDistance('Order A1 ships on Monday.', { threshold: 0.9 })
 */
export function toBeSimilarByEditDistance(
  this: MatcherState,
  received: unknown,
  expected: unknown,
  options?: unknown,
): AsyncResult {
  return runScorerMatcher(this, received, options, {
    matcher: 'toBeSimilarByEditDistance',
    expectedLabel: 'expected',
    scorerId: 'edit-distance',
    async run(opts, choices) {
      checkOptions('toBeSimilarByEditDistance', options, ['threshold', 'ignoreCase', 'cassettes'])
      const text = expectedString('toBeSimilarByEditDistance', expected)
      const { createEditDistanceScorer } = await import('../src/similarity/similarity-scorer')
      const scorer = createEditDistanceScorer({
        expected: text,
        threshold: opts.threshold as number | undefined,
        ignoreCase: opts.ignoreCase as boolean | undefined,
      })
      return scorer.run(withRunChoices({ output: received }, choices))
    },
  })
}

function expectedString(matcher: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new UsageError(messages.similarityBadExpected(`${matcher}()`, value))
  return value
}
