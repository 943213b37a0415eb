import { withoutErrorPage } from '../errors'

/**
 * What the loop tells the agent when a check fails: the heading of each scorer's reason and the
 * reason given for a scorer that could not decide. It is sent to the agent as part of its next
 * prompt, so it is part of the agent's recorded requests (their cassette keys): reword it only
 * with a re-record. None has the `[rubricate]` prefix: it is addressed to the model.
 * @internal
 */
export const loopFeedback = {
  scorerThrew: (id: string, error: unknown): string =>
    `Scorer "${id}" threw an error, so the output could not be checked: ${withoutErrorPage(error instanceof Error ? error.message : String(error))}`,
  scorerTimedOut: (id: string, ms: number): string =>
    `Scorer "${id}" did not finish within the check timeout of ${ms} ms, so the output could not be checked.`,
  scorerNotScorable: (id: string, reason: string | undefined): string =>
    `Scorer "${id}" could not score the output${reason ? `: ${reason}` : '.'}`,
  scorerBelowOne: (id: string, score: number | undefined): string =>
    score === undefined
      ? `Scorer "${id}" returned no score.`
      : `Scorer "${id}" scored ${score}; the task is complete at 1.`,
  noScorers: (strategy: 'all' | 'any'): string =>
    strategy === 'any'
      ? 'No scorer is configured, so the "any" strategy can never be met.'
      : 'The task is not complete.',
  feedbackHeading: (id: string): string => `Scorer "${id}":`,
}
