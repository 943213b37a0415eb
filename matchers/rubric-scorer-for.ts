import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { JudgeInput } from '../src/records'
import { parseCriteria } from '../src/rubric/criteria'
import { createRubricScorer } from '../src/rubric/rubric-scorer'
import type { ScorerLike } from './types'

// A file usually asserts the same few rubrics many times. Their scorers are kept, so a rubric is
// parsed and its scorer built once rather than on every assertion (about 30 µs each, on the
// replay path's budget of a fraction of a millisecond). A scorer holds no state between runs and
// resolves its judge when it runs, so sharing one is safe. Only text rubrics with a judge given
// by name (or none) are kept, and at most a few hundred.
const scorers = new Map<string, ScorerLike>()
const MAX_KEPT = 256

/**
 * The rubric scorer that `toSatisfyRubric` runs for criteria given as text or a list, with the
 * matcher's `judge`, `samples`, `evaluation`, `scoring` and `threshold`. An empty rubric is a usage error; so are an empty
 * or duplicate criterion, named as the matcher's.
 * @internal
 */
export function rubricScorerFor(criteria: unknown, options: Record<string, unknown>): ScorerLike {
  const key = cacheKey(criteria, options)
  const kept = key === undefined ? undefined : scorers.get(key)
  if (kept) return kept
  if (typeof criteria !== 'string' && !Array.isArray(criteria)) {
    throw new UsageError(messages.invalidCriteria(criteria))
  }
  if (parseCriteria(criteria, 'toSatisfyRubric() criteria').length === 0) {
    throw new UsageError(messages.emptyRubric(criteria))
  }
  const scorer = createRubricScorer({
    judge: options.judge as JudgeInput | undefined,
    criteria,
    options: {
      samples: options.samples as number | undefined,
      evaluation: options.evaluation as 'together' | 'separately' | undefined,
      scoring: options.scoring as 'all' | 'fraction' | undefined,
      threshold: options.threshold as number | undefined,
    },
  })
  if (key !== undefined) {
    if (scorers.size >= MAX_KEPT) scorers.clear()
    scorers.set(key, scorer)
  }
  return scorer
}

function cacheKey(criteria: unknown, options: Record<string, unknown>): string | undefined {
  const { judge, samples, evaluation, scoring, threshold } = options
  if (typeof criteria !== 'string') return undefined
  // The rubric alone, as most assertions give it: the text is the key. The JSON key of the other
  // cases starts with `[`, and a rubric that does takes the JSON key too, so the two never meet.
  if (
    judge === undefined &&
    samples === undefined &&
    evaluation === undefined &&
    scoring === undefined &&
    threshold === undefined &&
    !criteria.startsWith('[')
  ) {
    return criteria
  }
  if (judge !== undefined && typeof judge !== 'string') return undefined
  // Anything but the expected types goes the long way, to its usage error.
  if (samples !== undefined && typeof samples !== 'number') return undefined
  if (evaluation !== undefined && typeof evaluation !== 'string') return undefined
  if (scoring !== undefined && typeof scoring !== 'string') return undefined
  if (threshold !== undefined && typeof threshold !== 'number') return undefined
  return JSON.stringify([
    criteria,
    judge ?? null,
    samples ?? null,
    evaluation ?? null,
    scoring ?? null,
    threshold ?? null,
  ])
}
