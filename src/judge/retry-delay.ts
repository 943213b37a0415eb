import * as timersPromises from 'node:timers/promises'

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
