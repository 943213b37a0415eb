import { setMaxListeners } from 'node:events'
import { UsageError } from '../errors'
import { untilAborted } from '../judge/retries'
import { messages } from '../messages'
import { currentCallContext, withCallContext } from '../runtime/call-context'
import { runCountingModelCalls } from '../scorer/model-calls'
import { loopFeedback } from './loop-feedback'
import type { CompletionCheck, LoopScorer, LoopScorerResult, ScorerCheck } from './types'

/** Everything one check needs. @internal */
export interface CheckRequest {
  iteration: number
  output: unknown
  input: unknown
  requestContext: unknown
  scorers: readonly LoopScorer[]
  strategy: 'all' | 'any'
  parallel: boolean
  checkTimeout: number
  signal: AbortSignal | undefined
}

/**
 * Run the scorers on one output and decide whether the task is complete (ARCHITECTURE.md §8.3). A scorer
 * that throws is errored, never a pass; scorers still running at the deadline are errored and
 * timed out, and a check that timed out is never complete. Rejects only when `signal` aborts.
 * @internal
 */
export async function checkCompletion(request: CheckRequest): Promise<CompletionCheck> {
  const started = performance.now()
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), request.checkTimeout)
  // The scorers' judge calls stop at the deadline and when the loop is aborted (and when the
  // test's own signal, already in the call context, fires on a test timeout).
  const signals = [currentCallContext().signal, request.signal, deadline.signal]
  const signal = AbortSignal.any(signals.filter((s) => s !== undefined))
  // Every judge call of every scorer listens to it: many listeners here are not a leak.
  setMaxListeners(0, signal)
  try {
    const run = (scorer: LoopScorer, index: number) =>
      withCallContext({ signal, recordsScorerRuns: true }, () =>
        runScorer(scorer, index, request, deadline.signal),
      )
    const scorers: ScorerCheck[] = []
    if (request.parallel) {
      scorers.push(...(await untilAborted(Promise.all(request.scorers.map(run)), [request.signal])))
    } else {
      for (const [index, scorer] of request.scorers.entries()) {
        const check = await untilAborted(run(scorer, index), [request.signal])
        scorers.push(check)
        if (request.strategy === 'all' ? !check.passed : check.passed) break
      }
    }
    const timedOut = scorers.some((s) => s.timedOut)
    const met =
      request.strategy === 'all'
        ? scorers.length === request.scorers.length && scorers.every((s) => s.passed)
        : scorers.some((s) => s.passed)
    const complete = met && !timedOut
    return {
      iteration: request.iteration,
      complete,
      scorers,
      timedOut,
      feedback: complete ? undefined : feedbackOf(scorers, request.strategy),
      durationMs: performance.now() - started,
    }
  } finally {
    clearTimeout(timer)
    // Stops the judge calls of scorers still running when the check rejects (a usage error from
    // one scorer, or the loop aborted): nothing will read their results.
    deadline.abort()
  }
}

async function runScorer(
  scorer: LoopScorer,
  index: number,
  request: CheckRequest,
  deadline: AbortSignal,
): Promise<ScorerCheck> {
  const id = scorerId(scorer, index)
  const started = performance.now()
  const base = { id, passed: false, errored: true, timedOut: false }
  let result: LoopScorerResult
  try {
    result = await untilAborted(
      Promise.resolve().then(() =>
        // A scorer's own model calls (a Mastra scorer's judge) count as judge calls.
        runCountingModelCalls(scorer, {
          input: request.input,
          output: request.output,
          requestContext: request.requestContext,
        }),
      ),
      [deadline],
    )
  } catch (error) {
    const durationMs = performance.now() - started
    if (request.signal?.aborted) throw request.signal.reason
    if (deadline.aborted) {
      return {
        ...base,
        timedOut: true,
        reason: loopFeedback.scorerTimedOut(id, request.checkTimeout),
        error,
        durationMs,
      }
    }
    return { ...base, reason: loopFeedback.scorerThrew(id, error), error, durationMs }
  }
  // A rubric scorer that found no rubric passes by default without judging anything: counted as
  // a pass, a misspelt rubric would complete the loop at once. The matchers refuse it too.
  if (result?.noRubric === true) throw new UsageError(messages.loopNoRubric(id))
  return { ...fromResult(id, result), durationMs: performance.now() - started }
}

function fromResult(id: string, result: LoopScorerResult): Omit<ScorerCheck, 'durationMs'> {
  const score = typeof result?.score === 'number' ? result.score : undefined
  const passed =
    typeof result?.passed === 'boolean' ? result.passed : score !== undefined && score >= 1
  let reason =
    typeof result?.reason === 'string' && result.reason !== '' ? result.reason : undefined
  if (result?.notScorable) reason = loopFeedback.scorerNotScorable(id, result.notScorable.reason)
  else if (!passed && reason === undefined) reason = loopFeedback.scorerBelowOne(id, score)
  return { id, score, passed, errored: false, timedOut: false, reason, result }
}

/** The scorer's `id`, else its `name`, else its position. @internal */
export function scorerId(scorer: LoopScorer, index: number): string {
  if (typeof scorer.id === 'string' && scorer.id !== '') return scorer.id
  if (typeof scorer.name === 'string' && scorer.name !== '') return scorer.name
  return `scorer ${index + 1}`
}

// The failing scorers' reasons, verbatim, so a rubric's per-criterion reasoning reaches the agent.
function feedbackOf(scorers: ScorerCheck[], strategy: 'all' | 'any'): string {
  const failing = scorers.filter((s) => !s.passed)
  if (failing.length === 0) return loopFeedback.noScorers(strategy)
  if (failing.length === 1) return failing[0]?.reason ?? ''
  return failing.map((s) => `${loopFeedback.feedbackHeading(s.id)}\n${s.reason ?? ''}`).join('\n\n')
}
