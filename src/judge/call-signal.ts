import { setMaxListeners } from 'node:events'
import { currentCallContext } from '../runtime/call-context'

/**
 * The signal of one judge call: the call context's (the test's, which fires on timeout) combined
 * with an explicit one. Never undefined, so the transports need no special case.
 * @internal
 */
export function callSignal(explicit?: AbortSignal | undefined): AbortSignal {
  const inContext = currentCallContext().signal
  if (inContext === undefined) return explicit ?? UNABORTABLE
  if (explicit === undefined || explicit === inContext) return inContext
  return AbortSignal.any([inContext, explicit])
}

// The signal of a call that nothing aborts (outside a test, with no signal given), shared by every
// such call on the replay path: an AbortController costs about 5 µs in Node 20. What listens to it
// there removes its listener when done; the SDK and a custom judge get one of their own (see
// `ownSignal`), as they may not.
const UNABORTABLE = new AbortController().signal
setMaxListeners(0, UNABORTABLE)

/**
 * The signal to hand to code rubricate does not own (the SDK, a custom judge, AI SDK): the call's
 * own, or a fresh one in place of the shared signal of a call that nothing aborts.
 * @internal
 */
export function ownSignal(signal: AbortSignal): AbortSignal {
  return signal === UNABORTABLE ? new AbortController().signal : signal
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
