/** The longest wait a provider's `Retry-After` may impose on a judge call, in seconds. @internal */
export const RETRY_AFTER_CAP_SECONDS = 30

/**
 * Rewrite a `Retry-After` or `retry-after-ms` header that asks for more than
 * {@link RETRY_AFTER_CAP_SECONDS} before the SDK reads it: the SDK honours any value, and a
 * provider asking for minutes would hold a test until its timeout with nothing to show.
 * @internal
 */
export function capRetryAfter(response: Response, now: number = Date.now()): Response {
  const ms = response.headers.get('retry-after-ms')
  const seconds = response.headers.get('retry-after')
  const capMs = RETRY_AFTER_CAP_SECONDS * 1000
  const msTooLong = ms !== null && Number.parseFloat(ms) > capMs
  const secondsTooLong = seconds !== null && waitMs(seconds, now) > capMs
  if (!msTooLong && !secondsTooLong) return response
  const headers = new Headers(response.headers)
  if (msTooLong) headers.set('retry-after-ms', String(capMs))
  if (secondsTooLong) headers.set('retry-after', String(RETRY_AFTER_CAP_SECONDS))
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** A `Retry-After` value (seconds or an HTTP date) in milliseconds from `now`. */
function waitMs(value: string, now: number): number {
  const seconds = Number.parseFloat(value)
  if (!Number.isNaN(seconds)) return seconds * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? 0 : date - now
}
