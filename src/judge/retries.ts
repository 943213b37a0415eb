// A judge call's bounds and retries: the caller's signal, the call's deadline and each request's
// timeout end what it awaits, whatever the transport does with the signal (ARCHITECTURE.md §4.1);
// a failure worth it is retried after the provider's `Retry-After` or a backoff, on the real clock.
import * as timersPromises from 'node:timers/promises'

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
 * `work`'s result, or a rejection with the reason of the first of `bounds` to abort, whichever
 * comes first: a transport that misses the abort (a fetch wrapper that re-creates the request and
 * its signal, a joined signal collected) cannot hold the call past its bounds. What the work does
 * after that is ignored.
 * @internal
 */
export function untilAborted<T>(work: Promise<T>, bounds: readonly AbortSignal[]): Promise<T> {
  const { signal, dispose } = joinSignals(bounds)
  if (signal.aborted) {
    work.catch(() => {})
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        work.catch(() => {})
        reject(signal.reason)
      },
      { once: true },
    )
    work.then(resolve, reject).finally(dispose)
  })
}

/**
 * Settle with `promise`, or reject with `onAbort()` as soon as `signal` fires: a transport that
 * sleeps without watching the signal (a custom model, a `Retry-After`) cannot hold an aborted call.
 * @internal
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  onAbort: () => Error,
): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {})
    return Promise.reject(onAbort())
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort())
    signal.addEventListener('abort', abort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort)
        reject(error)
      },
    )
  })
}

/** The longest wait a provider's `Retry-After` may impose on a judge call, in seconds. @internal */
export const RETRY_AFTER_CAP_SECONDS = 30

// Captured when rubricate loads: `vi.useFakeTimers()` replaces the global `setTimeout` and the
// methods of the timers modules, and a retry sleeping on a faked clock never wakes up (the test
// then ends in "Test timed out" with nothing said about the judge).
const realSleep = timersPromises.setTimeout

/**
 * Wait `ms` on the real clock, whatever a test did to its timers; rejects when `signal` fires.
 * @internal
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return realSleep(ms, undefined, { signal })
}

/**
 * Whether a failed judge response is worth another request: the provider's `x-should-retry`
 * when it says, else 408, 409, 429 and 5xx (the OpenAI SDK's rule). A connection error or a
 * timeout (no status) is always worth one.
 * @internal
 */
export function isRetryable(status: number | undefined, headers: Headers | undefined): boolean {
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
