import type { MatcherState } from 'vitest'
import { messages } from '../src/messages'
import { withRunChoices } from '../src/runtime/run-choices'
import { checkOptions } from './check-options'
import { judgeLine, outputLine } from './failure-message'
import { runScorerMatcher } from './scorer-matcher'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

/**
 * Every claim of the value is supported by `context` (a text or a list of passages), or the share
 * given as `threshold`: the faithfulness scorer, one judge call. A failure names each unsupported
 * claim with the judge's reasoning.
 *
 * @example
 * await expect(reply).toBeGroundedIn(retrievedDocs, { input: question })
 */
export function toBeGroundedIn(
  this: MatcherState,
  received: unknown,
  context: unknown,
  options?: unknown,
): AsyncResult {
  return runScorerMatcher(this, received, options, {
    matcher: 'toBeGroundedIn',
    expectedLabel: 'context',
    scorerId: 'faithfulness',
    async run(opts, choices) {
      checkOptions('toBeGroundedIn', options, ['input', 'threshold', 'judge', 'cassettes'])
      const { createFaithfulnessScorer } = await import('../src/grounding/grounding-scorers')
      const scorer = createFaithfulnessScorer({
        context: context as never,
        judge: opts.judge as never,
        threshold: opts.threshold as number | undefined,
      })
      return scorer.run(withRunChoices({ input: opts.input, output: received }, choices))
    },
  })
}

/**
 * The judge prefers the value over `baseline` on `criteria`, asked twice with the order swapped;
 * a preference counts only when both orders agree (a tie otherwise). A failure shows both orders.
 *
 * @example
 * await expect(newReply).toBePreferredOver(oldReply, 'More helpful and accurate', { input: question })
 */
export function toBePreferredOver(
  this: MatcherState,
  received: unknown,
  baseline: unknown,
  criteria: unknown,
  options?: unknown,
): AsyncResult {
  return runScorerMatcher(this, received, options, {
    matcher: 'toBePreferredOver',
    expectedLabel: 'baseline',
    scorerId: 'pairwise-preference',
    async run(opts, choices) {
      checkOptions('toBePreferredOver', options, ['input', 'judge', 'allowTie', 'cassettes'])
      const { createPreferenceScorer } = await import('../src/pairwise/preference-scorer')
      const scorer = createPreferenceScorer({
        criteria: criteria as string,
        baseline: typeof baseline === 'function' ? (baseline as never) : () => baseline,
        judge: opts.judge as never,
        allowTie: opts.allowTie as boolean | undefined,
      })
      return scorer.run(withRunChoices({ input: opts.input, output: received }, choices))
    },
    explain(evaluation, negated, preview) {
      const lines = [
        negated
          ? messages.preferredNegated(evaluation.score ?? Number.NaN)
          : messages.notPreferred(evaluation.score ?? Number.NaN),
        messages.failureReason(evaluation.reason ?? ''),
        '',
        outputLine(preview),
      ]
      const judge = judgeLine(evaluation.judgeCalls)
      if (judge) lines.push(judge)
      return lines.join('\n')
    },
  })
}
