// How a judge call's bounds (the test's signal, the call's deadline, each request's timeout) end
// what it awaits, whatever the transport does with the signal (ARCHITECTURE.md §4.1).

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
