// A judge call's bounded retries, in one place: each attempt ends at its own timeout, at the call's
// deadline or at the caller's signal, whatever the transport does with the signal (ARCHITECTURE.md
// §4.1); a failure worth it is retried after the provider's `Retry-After` or a backoff. Timers and
// waits are on the real clock. What is particular to a transport comes in as a `RetryTransport`.
import * as timers from 'node:timers'
import * as timersPromises from 'node:timers/promises'

/** The bounds of one call, resolved by the caller. @internal */
export interface RetryBounds {
  /** The caller's signal (the test's, and the call's own): an abort ends the call, never retried. */
  caller: AbortSignal
  /** The whole call's bound, in milliseconds, retries and waits included. */
  deadlineMs: number
  /** Each attempt's own bound, in milliseconds. */
  timeoutMs: number
  /** Attempts after the first one, at most. */
  maxRetries: number
}

/** One attempt of a call: it should end when `signal` aborts, and is left behind if it does not. */
type Attempt<Reply> = (signal: AbortSignal) => Promise<Reply>

/** What a transport brings to {@link withRetries}: its attempt, and its errors. @internal */
export interface RetryTransport<Reply> {
  /** Builds the attempt once, after the deadline starts: building it counts against the deadline. */
  buildAttempt(): Promise<Attempt<Reply>>
  /**
   * How the transport's failures read; asked on a failure only, so a call that succeeds never
   * loads what reads them. An error it throws ends the call as it is.
   */
  failureRule(): Promise<FailureRule>
  /** The error a call ends with at its deadline; `cause` is the failure the deadline cut short. */
  deadlinePassed(cause?: unknown): Error
  /** The error a call ends with when the caller's signal ends the wait between attempts. */
  aborted(): Error
}

/** How a transport's failures read: for the retry rule, and as the call's error. @internal */
export interface FailureRule {
  /** The failure an attempt ended by its own timeout is, as the transport names one. */
  timeout(): unknown
  /**
   * The status (none for a failed connection) and headers of a failure that the retry rule may
   * retry, or `undefined` for one it never retries (an abort, anything that is not a request's).
   */
  httpFailure(
    failure: unknown,
  ): { status: number | undefined; headers: Headers | undefined } | undefined
  /** The error a call ends with when `failure` is not retried (not worth it, or retries spent). */
  translate(failure: unknown): unknown
}

/** One call under way: its bounds, its transport and attempt, and its running deadline. */
interface RetriedCall<Reply> {
  bounds: RetryBounds
  transport: RetryTransport<Reply>
  attempt: Attempt<Reply>
  deadline: AbortSignal
}

type Outcome<Reply> = { reply: Reply } | { failure: unknown; rule: FailureRule }

/**
 * The reply of the first attempt that succeeds. A failure is retried while retries are left, the
 * caller has not aborted and {@link isRetryable} says so; any other ends the call with the
 * transport's error for it.
 * @internal
 */
export async function withRetries<Reply>(
  bounds: RetryBounds,
  transport: RetryTransport<Reply>,
): Promise<Reply> {
  const deadline = realTimeout(bounds.deadlineMs)
  try {
    const attempt = await transport.buildAttempt()
    const call: RetriedCall<Reply> = { bounds, transport, attempt, deadline: deadline.signal }
    for (let retry = 0; ; retry++) {
      if (call.deadline.aborted) throw transport.deadlinePassed()
      const outcome = await attemptOnce(call)
      if ('reply' in outcome) return outcome.reply
      await retryOrThrow(call, outcome.failure, outcome.rule, retry)
    }
  } finally {
    deadline.clear()
  }
}

/** One attempt, bounded by its own timeout, the call's deadline and the caller's signal. */
async function attemptOnce<Reply>(call: RetriedCall<Reply>): Promise<Outcome<Reply>> {
  const { bounds, deadline } = call
  const timeout = realTimeout(bounds.timeoutMs)
  const joined = joinSignals([bounds.caller, deadline, timeout.signal])
  try {
    // Rubricate's own bounds end the wait even if the abort never reaches the transport; the
    // caller's signal ends it through the transport, as the transport reports it.
    return { reply: await untilAborted(call.attempt(joined.signal), [deadline, timeout.signal]) }
  } catch (error) {
    return await failedAttempt(call, error, joined.signal)
  } finally {
    timeout.clear()
    joined.dispose()
  }
}

// A passed deadline is told as one; an attempt's own timeout is the transport's timeout failure,
// for the retry rule to read.
async function failedAttempt<Reply>(
  call: RetriedCall<Reply>,
  error: unknown,
  attempt: AbortSignal,
): Promise<Outcome<Reply>> {
  const { caller } = call.bounds
  const rule = await call.transport.failureRule()
  if (call.deadline.aborted && !caller.aborted) throw call.transport.deadlinePassed(error)
  const timedOut = attempt.aborted && !caller.aborted
  return { failure: timedOut ? rule.timeout() : error, rule }
}

// The retry rule, bounded by `maxRetries`; the wait on the real clock, ended by either bound.
async function retryOrThrow<Reply>(
  call: RetriedCall<Reply>,
  failure: unknown,
  rule: FailureRule,
  retry: number,
): Promise<void> {
  const { caller, maxRetries } = call.bounds
  const http = retry < maxRetries && !caller.aborted ? rule.httpFailure(failure) : undefined
  if (!http || !isRetryable(http.status, http.headers)) throw rule.translate(failure)
  const waiting = joinSignals([caller, call.deadline])
  try {
    await sleep(retryDelayMs(http.headers, retry), waiting.signal)
  } catch {
    if (call.deadline.aborted && !caller.aborted) throw call.transport.deadlinePassed()
    throw call.transport.aborted()
  } finally {
    waiting.dispose()
  }
}

// Captured when rubricate loads, as `realSleep` is: `vi.useFakeTimers()` replaces the global
// timers and the methods of the timers modules.
const setRealTimeout = timers.setTimeout
const clearRealTimeout = timers.clearTimeout

/**
 * A timer on the real clock, held until cleared: `AbortSignal.timeout`'s timer is let go once
 * nothing holds its signal, and inside Vitest a collection then lost it (a request hung for
 * minutes).
 */
function realTimeout(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController()
  const timer = setRealTimeout(() => controller.abort(), ms)
  return { signal: controller.signal, clear: () => clearRealTimeout(timer) }
}

/** A signal joined from others, and the way to let go of them. @internal */
export interface JoinedSignal {
  readonly signal: AbortSignal
  /** Remove the listeners from the sources, once the work the signal bounds has ended. */
  dispose(): void
}

/**
 * One signal that aborts as soon as any of `signals` does, held by its sources. Not
 * `AbortSignal.any()`: its signal is held by its sources only weakly, and once nothing else held
 * it a garbage collection let an abort go unseen (Node 22, inside Vitest: a judge that never
 * answered outlived its deadline, reliability group 1).
 * @internal
 */
export function joinSignals(signals: readonly AbortSignal[]): JoinedSignal {
  const joined = new AbortController()
  const already = signals.find((signal) => signal.aborted)
  if (already) {
    joined.abort(already.reason)
    return { signal: joined.signal, dispose: () => {} }
  }
  const listeners = signals.map((signal) => {
    const listener = () => joined.abort(signal.reason)
    signal.addEventListener('abort', listener, { once: true })
    return [signal, listener] as const
  })
  return {
    signal: joined.signal,
    dispose: () => {
      for (const [signal, listener] of listeners) signal.removeEventListener('abort', listener)
    },
  }
}

/**
 * `work`'s result, or a rejection as soon as the first of `bounds` aborts (with `reason()`, else
 * that signal's reason), whichever comes first: a transport that misses the abort (a fetch wrapper
 * that re-creates the request and its signal, a custom model that sleeps, an agent that ignores
 * its signal) cannot hold a call past its bounds. What the work does after that is ignored. An
 * unset bound is none.
 * @internal
 */
export function untilAborted<T>(
  work: Promise<T>,
  bounds: readonly (AbortSignal | undefined)[],
  reason?: () => unknown,
): Promise<T> {
  const signals = bounds.filter((bound): bound is AbortSignal => bound !== undefined)
  if (signals.length === 0) return work
  const { signal, dispose } = joinSignals(signals)
  const abort = () => {
    work.catch(() => {})
    return reason ? reason() : signal.reason
  }
  if (signal.aborted) return Promise.reject(abort())
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(abort()), { once: true })
    work.then(resolve, reject).finally(dispose)
  })
}

/** The longest wait a provider's `Retry-After` may impose on a judge call, in seconds. */
const RETRY_AFTER_CAP_SECONDS = 30

// Captured when rubricate loads: `vi.useFakeTimers()` replaces the global `setTimeout` and the
// methods of the timers modules, and a retry sleeping on a faked clock never wakes up (the test
// then ends in "Test timed out" with nothing said about the judge).
const realSleep = timersPromises.setTimeout

/** Wait `ms` on the real clock, whatever a test did to its timers; rejects when `signal` fires. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return realSleep(ms, undefined, { signal })
}

/**
 * Whether a failed judge response is worth another request: the provider's `x-should-retry`
 * when it says, else 408, 409, 429 and 5xx (the OpenAI SDK's rule). A connection error or a
 * timeout (no status) is always worth one.
 */
function isRetryable(status: number | undefined, headers: Headers | undefined): boolean {
  if (status === undefined) return true
  const said = headers?.get('x-should-retry')
  if (said === 'true') return true
  if (said === 'false') return false
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * How long to wait before retry number `retry` (0 for the first): the provider's
 * `retry-after-ms` or `Retry-After` (seconds or an HTTP date), capped at
 * {@link RETRY_AFTER_CAP_SECONDS} (a provider asking for minutes would hold a test until its
 * timeout with nothing to show), else an exponential backoff from 0.5 s up to 8 s with jitter.
 * @internal
 */
export function retryDelayMs(
  headers: Headers | undefined,
  retry: number,
  now: number = Date.now(),
): number {
  const capMs = RETRY_AFTER_CAP_SECONDS * 1000
  const asked = askedDelayMs(headers, now)
  if (asked !== undefined) return Math.min(Math.max(asked, 0), capMs)
  const backoff = Math.min(0.5 * 2 ** retry, 8) * 1000
  return backoff * (1 - Math.random() * 0.25)
}

function askedDelayMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '')
  if (!Number.isNaN(ms)) return ms
  const value = headers?.get('retry-after')
  if (!value) return undefined
  const seconds = Number.parseFloat(value)
  if (!Number.isNaN(seconds)) return seconds * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : date - now
}
