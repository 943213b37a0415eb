import { modelCallsAsJudge } from '../judge/cassette-bridge'
import { usageOf } from '../judge/price-table'
import type { JudgeCall, ScorerStepName } from '../records/records'
import { withCallContext } from '../runtime/call-context'
import { type RunChoices, runChoicesOf } from '../runtime/run-choices'

// How long a scorer's streamed model calls may take to be written after the scorer returned.
const STREAM_GRACE_MS = 1000

/**
 * Run `fn` (a scorer's work) so that the model calls it makes through rubricate's agents' path
 * (msw, `createCassetteFetch`) are judge calls: a Mastra scorer's judge, or an autoevals one, is a
 * model client of its own, whose HTTP calls would otherwise count as the agent's. The judge's live
 * limits wrap them (`maxLiveCalls`, `maxCost`, concurrency), their cost counts, the agents' count
 * leaves them out, and they come back as judge calls (model, source, tokens, cassette entry).
 * `edge`: the choices of the run the scorer was given (its test and signal).
 * @internal
 */
export async function withModelCallsAsJudgeCalls<T>(
  step: ScorerStepName,
  fn: () => T | Promise<T>,
  edge: RunChoices = {},
): Promise<{ value: T; judgeCalls: JudgeCall[] }> {
  const judgeCalls: JudgeCall[] = []
  const pending: Promise<void>[] = []
  let last = performance.now()
  const value = await withCallContext(
    {
      // The scorer's model client takes nothing from rubricate: the test and signal its edge
      // handed down reach that client's HTTP calls through the context.
      test: edge.test,
      signal: edge.signal,
      modelCalls: {
        asJudge: modelCallsAsJudge,
        onModelCallPending: (settled) => pending.push(settled),
        // The innermost capture keeps each call; an outer one gets it in the result's judgeCalls.
        onModelCall: (event) => {
          const now = performance.now()
          const call: JudgeCall = {
            step,
            model: event.model ?? event.endpoint,
            status: 'success',
            source: event.source,
            durationMs: now - last,
            attemptCount: 1,
            modelCallCount: 1,
          }
          if (event.key !== undefined) call.cassetteKey = event.key
          if (event.file !== undefined) call.cassetteFile = event.file
          const usage = usageOf(event.reply?.())
          if (usage) call.usage = usage
          judgeCalls.push(call)
          last = now
        },
      },
    },
    fn,
  )
  // A streamed call is heard of once written, which may be just after the scorer read its end; a
  // stream the scorer left unread is not waited for past a short grace.
  if (pending.length > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.all(pending),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STREAM_GRACE_MS)
      }),
    ])
    clearTimeout(timer)
  }
  return { value, judgeCalls }
}

/**
 * `scorer.run(run)`, with the model calls the scorer made (see {@link withModelCallsAsJudgeCalls})
 * added to its result's `judgeCalls`, in a copy of the result. What `toPassScorer` and the loop
 * run every scorer with: rubricate's own judge calls never pass there, so nothing counts twice.
 * @internal
 */
export async function runCountingModelCalls<R>(
  scorer: { run(run: any): R | Promise<R> },
  run: unknown,
): Promise<R> {
  const { value, judgeCalls } = await withModelCallsAsJudgeCalls(
    'generateScore',
    () => scorer.run(run),
    runChoicesOf(run),
  )
  if (judgeCalls.length === 0 || value === null || typeof value !== 'object') return value
  const own = (value as { judgeCalls?: unknown }).judgeCalls
  return {
    ...value,
    judgeCalls: [...(Array.isArray(own) ? (own as JudgeCall[]) : []), ...judgeCalls],
  }
}
