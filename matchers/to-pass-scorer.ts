import type { MatcherState } from 'vitest'
import { withCallContext } from '../src/call-context'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { mastraAgentRun } from '../src/output'
import type { JudgeCall, Verdict } from '../src/records'
import { cassetteOption, checkOptions, isScorer, rejectUnscored, scorerName } from './check-options'
import { scorerFailure } from './failure-message'
import { runAssertion } from './run-assertion'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

const OPTIONS = ['threshold', 'input', 'groundTruth', 'requestContext', 'cassettes'] as const

/**
 * Run a scorer on the value under test; passes when its score reaches `threshold`. Without a
 * threshold, a scorer that reports `passed` (a rubric scorer) passes on it, any other on
 * `score >= 1`. A result with `noRubric` or `notScorable` is a usage error, not a pass.
 *
 * @example
 * await expect(reply).toPassScorer(helpfulness, { threshold: 0.8, input: question })
 */
export function toPassScorer(
  this: MatcherState,
  received: unknown,
  scorer: unknown,
  options?: unknown,
): AsyncResult {
  let threshold: number | undefined
  let id = 'scorer'
  return runAssertion({
    kind: 'scorer',
    matcher: 'toPassScorer',
    state: this,
    received,
    expectedLabel: 'scorer',
    async evaluate() {
      if (!isScorer(scorer)) throw new UsageError(messages.invalidScorer('toPassScorer', scorer))
      id = scorerName(scorer)
      const opts = checkOptions('toPassScorer', options, OPTIONS)
      threshold = opts.threshold as number | undefined
      if (
        threshold !== undefined &&
        !(typeof threshold === 'number' && Number.isFinite(threshold))
      ) {
        throw new UsageError(messages.invalidThreshold(threshold))
      }
      const cassetteMode = cassetteOption('toPassScorer', opts.cassettes)
      const run: Record<string, unknown> = { input: opts.input, output: received }
      // A `type: 'agent'` scorer (rubricate's or Mastra's) given a Mastra agent result gets the
      // messages Mastra would hand it, not the result object.
      const agentRun = isAgentScorer(scorer) ? mastraAgentRun(received) : undefined
      if (agentRun) {
        run.output = agentRun.output
        if (opts.input === undefined) run.input = agentRun.input
      }
      if (opts.groundTruth !== undefined) run.groundTruth = opts.groundTruth
      if (opts.requestContext !== undefined) run.requestContext = opts.requestContext
      const result: Record<string, any> = await withCallContext({ cassetteMode }, () =>
        scorer.run(run),
      )
      rejectUnscored('toPassScorer', id, result)
      const score = result.score
      const byPassed = threshold === undefined && typeof result.passed === 'boolean'
      if (!byPassed && !(typeof score === 'number' && Number.isFinite(score))) {
        throw new UsageError(messages.matcherNoScore('toPassScorer', id, score))
      }
      return {
        satisfied: byPassed ? Boolean(result.passed) : (score as number) >= (threshold ?? 1),
        score: typeof score === 'number' ? score : undefined,
        threshold: byPassed ? undefined : (threshold ?? 1),
        verdicts: result.verdicts as Verdict[] | undefined,
        reason: result.reason,
        judgeCalls: (result.judgeCalls as JudgeCall[] | undefined) ?? [],
        scorerId: id,
        decidedByPassed: byPassed,
      }
    },
    explain: scorerFailure,
  })
}

/** A scorer built with `type: 'agent'`: rubricate's exposes `type`, Mastra's `config.type` too. */
function isAgentScorer(scorer: object): boolean {
  const { type, config } = scorer as { type?: unknown; config?: { type?: unknown } }
  return type === 'agent' || config?.type === 'agent'
}
