import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { ScorerLike } from './types'

/**
 * The rubric scorer that `toSatisfyRubric` runs for criteria given as text or a list, with the
 * matcher's `judge`, `samples` and `evaluation`. An empty rubric is a usage error.
 * @internal
 */
export function rubricScorerFor(criteria: unknown, options: Record<string, unknown>): ScorerLike {
  if (typeof criteria === 'string') {
    if (criteria.trim() === '') throw new UsageError(messages.emptyRubric(criteria))
  } else if (Array.isArray(criteria)) {
    if (criteria.length === 0) throw new UsageError(messages.emptyRubric(criteria))
  } else {
    throw new UsageError(messages.invalidCriteria(criteria))
  }
  void options
  // Until createRubricScorer lands (issue 4), text criteria cannot be judged; a scorer can.
  throw new Error(
    messages.bug(
      'toSatisfyRubric() with text criteria needs createRubricScorer, which is not built yet',
    ),
  )
}
