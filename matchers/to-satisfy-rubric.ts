import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { JudgeCall, Verdict } from '../src/records/records'
import { withRunChoices } from '../src/runtime/run-choices'
import type { ScorerRun } from '../src/scorer/types'
import {
  cassetteOption,
  checkOptions,
  inputOption,
  isScorer,
  judgeReferences,
  rejectUnscored,
  scorerName,
} from './check-options'
import { evalAssertionOf } from './eval-assertion'
import { rubricFailure } from './failure-message'
import { runAssertion } from './run-assertion'
import type { ScorerLike } from './types'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

const OPTIONS = [
  'input',
  'groundTruth',
  'expected',
  'context',
  'judge',
  'samples',
  'evaluation',
  'scoring',
  'threshold',
  'cassettes',
] as const
const RUBRIC_OPTIONS = ['judge', 'samples', 'evaluation', 'scoring', 'threshold'] as const

/**
 * Ask the judge whether the value under test satisfies every required criterion of a rubric
 * (ARCHITECTURE.md §8.2). `.not` passes when at least one required criterion is unmet. A judge error fails
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
    input: () => inputOption(options),
    eval: evalAssertionOf(options),
    expectedLabel: 'criteria',
    async evaluate(call) {
      const opts = checkOptions('toSatisfyRubric', options, OPTIONS)
      const cassetteMode = cassetteOption('toSatisfyRubric', opts.cassettes)
      const run = withRunChoices(
        { input: opts.input, output: received, ...judgeReferences('toSatisfyRubric', opts) },
        { cassetteMode, ...call },
      )
      const given = isScorer(criteria) ? { scorer: criteria, id: scorerName(criteria) } : undefined
      const { id, result } = given
        ? await runGivenScorer(given, opts, run)
        : await runRubric(criteria, opts, run)
      // Whatever made it, a result without a score is refused, never read as a pass.
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
        ...shareOf(result),
      }
    },
    explain: rubricFailure,
  })
}

type Outcome = { id: string; result: Record<string, any> }

// A scorer given as the rubric: the rubric's own options have no effect there.
async function runGivenScorer(
  given: { scorer: ScorerLike; id: string },
  opts: Record<string, unknown>,
  run: ScorerRun,
): Promise<Outcome> {
  const misplaced = RUBRIC_OPTIONS.filter((key) => opts[key] !== undefined)
  if (misplaced.length > 0) throw new UsageError(messages.rubricOptionsWithScorer(misplaced))
  return { id: given.id, result: await given.scorer.run(run) }
}

// Criteria: the rubric scorer made of them.
async function runRubric(
  criteria: unknown,
  opts: Record<string, unknown>,
  run: ScorerRun,
): Promise<Outcome> {
  // Loaded at the first rubric assertion, not by the setup file, so a test file that asserts
  // no rubric never loads the scorer, the judge or zod (ARCHITECTURE.md §10).
  const { rubricScorerFor } = await import('./rubric-scorer-for')
  const rubric = rubricScorerFor(criteria, opts)
  return { id: rubric.id, result: await rubric.run(run) }
}

/** A partial-credit rubric's share and threshold, for the record and the failure message. @internal */
export function shareOf(result: Record<string, any>): { share?: number; threshold?: number } {
  return typeof result.share === 'number'
    ? {
        share: result.share,
        threshold: typeof result.threshold === 'number' ? result.threshold : 1,
      }
    : {}
}
