import { currentCallContext } from '../call-context'

/**
 * The signal of one judge call: the call context's (the test's, which fires on timeout) combined
 * with an explicit one. Never undefined, so the transports need no special case.
 * @internal
 */
export function callSignal(explicit?: AbortSignal | undefined): AbortSignal {
  const signals = [currentCallContext().signal, explicit].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  )
  if (signals.length === 0) return new AbortController().signal
  return signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals)
}

/**
 * Settle with `promise`, or reject with `onAbort()` as soon as `signal` fires. The SDK sleeps
 * through a `Retry-After` without watching the signal; this makes an abort take effect at once.
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
