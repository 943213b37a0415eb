import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { JudgeInput } from '../src/records/records'
import { parseCriteria } from '../src/rubric/criteria'
import { type RubricScorer, rubricOptions, rubricScorer } from '../src/rubric/rubric-scorer'

/**
 * The rubric scorer that `toSatisfyRubric` runs for criteria given as text or a list, with the
 * matcher's `judge`, `samples`, `evaluation`, `scoring` and `threshold` (keys checked by the
 * matcher). The criteria are parsed here, once: an empty rubric is a usage error; so are an empty
 * or duplicate criterion, named as the matcher's.
 * @internal
 */
export function rubricScorerFor(criteria: unknown, options: Record<string, unknown>): RubricScorer {
  if (typeof criteria !== 'string' && !Array.isArray(criteria)) {
    throw new UsageError(messages.invalidCriteria(criteria))
  }
  const parsed = parseCriteria(criteria, 'toSatisfyRubric() criteria')
  if (parsed.length === 0) throw new UsageError(messages.emptyRubric(criteria))
  const choices = rubricOptions({
    samples: options.samples as number | undefined,
    evaluation: options.evaluation as 'together' | 'separately' | undefined,
    scoring: options.scoring as 'all' | 'fraction' | undefined,
    threshold: options.threshold as number | undefined,
  })
  return rubricScorer(options.judge as JudgeInput | undefined, parsed, choices)
}
