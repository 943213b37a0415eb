import type { MatcherState } from 'vitest'
import { withCallContext } from '../src/call-context'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { JudgeCall, Verdict } from '../src/records'
import { cassetteOption, checkOptions, isScorer, rejectUnscored, scorerName } from './check-options'
import { rubricFailure } from './failure-message'
import { rubricScorerFor } from './rubric-scorer-for'
import { runAssertion } from './run-assertion'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

const OPTIONS = ['input', 'judge', 'samples', 'evaluation', 'cassettes'] as const
const RUBRIC_OPTIONS = ['judge', 'samples', 'evaluation'] as const

/**
 * Ask the judge whether the value under test satisfies every required criterion of a rubric
 * (DESIGN 8.2). `.not` passes when at least one required criterion is unmet. A judge error fails
 * in both directions.
 *
 * @example
 * await expect(reply).toSatisfyRubric('- Acknowledges the double charge', { input: question })
 */
export function toSatisfyRubric(
  this: MatcherState,
  received: unknown,
  criteria: unknown,
  options?: unknown,
): AsyncResult {
  return runAssertion({
    kind: 'rubric',
    matcher: 'toSatisfyRubric',
    state: this,
    received,
    expectedLabel: 'criteria',
    async evaluate() {
      const opts = checkOptions('toSatisfyRubric', options, OPTIONS)
      const cassetteMode = cassetteOption('toSatisfyRubric', opts.cassettes)
      let scorer = criteria
      if (isScorer(criteria)) {
        const misplaced = RUBRIC_OPTIONS.filter((key) => opts[key] !== undefined)
        if (misplaced.length > 0) throw new UsageError(messages.rubricOptionsWithScorer(misplaced))
      } else {
        scorer = rubricScorerFor(criteria, opts)
      }
      if (!isScorer(scorer)) throw new UsageError(messages.invalidCriteria(criteria))
      const id = scorerName(scorer)
      const rubric = scorer
      const result: Record<string, any> = await withCallContext({ cassetteMode }, () =>
        rubric.run({ input: opts.input, output: received }),
      )
      rejectUnscored('toSatisfyRubric', id, result)
      const satisfied =
        typeof result.passed === 'boolean'
          ? result.passed
          : typeof result.score === 'number' && result.score >= 1
      return {
        satisfied,
        score: typeof result.score === 'number' ? result.score : undefined,
        verdicts: result.verdicts as Verdict[] | undefined,
        reason: result.reason,
        judgeCalls: (result.judgeCalls as JudgeCall[] | undefined) ?? [],
        scorerId: id,
      }
    },
    explain: rubricFailure,
  })
}
