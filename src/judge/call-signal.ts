import { currentCallContext } from '../runtime/call-context'

/**
 * The signal of one judge call: the call context's (the test's, which fires on timeout) combined
 * with an explicit one. Never undefined, so the transports need no special case.
 * @internal
 */
export function callSignal(explicit?: AbortSignal | undefined): AbortSignal {
  const inContext = currentCallContext().signal
  if (inContext === undefined) return explicit ?? new AbortController().signal
  if (explicit === undefined || explicit === inContext) return inContext
  return AbortSignal.any([inContext, explicit])
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
