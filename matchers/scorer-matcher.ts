import type { MatcherState } from 'vitest'
import type { JudgeCall } from '../src/records/records'
import type { RunChoices } from '../src/runtime/run-choices'
import { cassetteOption, inputOption } from './check-options'
import { type Evaluation, scorerFailure } from './failure-message'
import { type Assertion, runAssertion } from './run-assertion'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

/** What a scorer-backed matcher runs: its scorer result, decided on `passed`. @internal */
export interface ScorerMatcher {
  matcher: Assertion['matcher']
  expectedLabel: string
  /** The scorer's id, named before it runs. */
  scorerId: string
  /**
   * Checks the options and runs the scorer with `choices` for its judge calls; its result must
   * hold `passed` and `score`.
   */
  run(options: Record<string, unknown>, choices: RunChoices): Promise<Record<string, any>>
  /** The failure's body; default: `toPassScorer`'s. */
  explain?: Assertion['explain'] | undefined
}

/**
 * A matcher that runs one of rubricate's ready-made scorers (similarity, grounding, preference):
 * the same plumbing, record and failure text as `toPassScorer`, with the scorer's own `passed`.
 * @internal
 */
export function runScorerMatcher(
  state: MatcherState,
  received: unknown,
  options: unknown,
  spec: ScorerMatcher,
): AsyncResult {
  return runAssertion({
    kind: 'scorer',
    matcher: spec.matcher,
    state,
    received,
    input: () => inputOption(options),
    expectedLabel: spec.expectedLabel,
    scorerId: () => spec.scorerId,
    async evaluate(call): Promise<Evaluation> {
      const opts = (options ?? {}) as Record<string, unknown>
      const cassetteMode = cassetteOption(spec.matcher, opts.cassettes)
      const result = await spec.run(opts, { cassetteMode, ...call })
      return {
        satisfied: Boolean(result.passed),
        score: typeof result.score === 'number' ? result.score : undefined,
        threshold: typeof result.threshold === 'number' ? result.threshold : undefined,
        reason: typeof result.reason === 'string' ? result.reason : undefined,
        judgeCalls: (result.judgeCalls as JudgeCall[] | undefined) ?? [],
        scorerId: spec.scorerId,
        metadata: result.metadata,
      }
    },
    explain: spec.explain ?? scorerFailure,
  })
}
