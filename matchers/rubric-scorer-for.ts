import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { JudgeInput } from '../src/records/records'
import { parseCriteria } from '../src/rubric/criteria'
import { createRubricScorer } from '../src/rubric/rubric-scorer'
import type { ScorerLike } from './types'

/**
 * The rubric scorer that `toSatisfyRubric` runs for criteria given as text or a list, with the
 * matcher's `judge`, `samples`, `evaluation`, `scoring` and `threshold`. An empty rubric is a usage error; so are an empty
 * or duplicate criterion, named as the matcher's.
 * @internal
 */
export function rubricScorerFor(criteria: unknown, options: Record<string, unknown>): ScorerLike {
  if (typeof criteria !== 'string' && !Array.isArray(criteria)) {
    throw new UsageError(messages.invalidCriteria(criteria))
  }
  if (parseCriteria(criteria, 'toSatisfyRubric() criteria').length === 0) {
    throw new UsageError(messages.emptyRubric(criteria))
  }
  return createRubricScorer({
    judge: options.judge as JudgeInput | undefined,
    criteria,
    options: {
      samples: options.samples as number | undefined,
      evaluation: options.evaluation as 'together' | 'separately' | undefined,
      scoring: options.scoring as 'all' | 'fraction' | undefined,
      threshold: options.threshold as number | undefined,
    },
  })
}
