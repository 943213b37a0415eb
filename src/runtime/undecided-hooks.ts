import { rootCause } from '../errors'
import { runtimeState } from './state'

/**
 * Calls that ended without an answer: a cassette miss (judge or agent), a judge call that failed,
 * an assertion that could not be decided. Whoever catches the error (a `try`, `test.fails`,
 * `.rejects`, the agent's own code), the Vitest setup file hears of it here, in the test that
 * made the call, and fails that test if the error did not.
 */

/** Receives each undecided call's error once (its rubricate root cause). @internal */
export type UndecidedListener = (error: Error) => void

const listeners = runtimeState().process.listeners.undecided
// The same error passes several layers on its way up (the cassette, the judge call, the matcher):
// it is told once.
const told = runtimeState().process.told.undecided

/** Subscribe to undecided calls; returns a function that unsubscribes. @internal */
export function onUndecided(listener: UndecidedListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tell every listener that a call ended with `error` and no answer. @internal */
export function reportUndecided(error: unknown): void {
  if (listeners.size === 0) return
  const root = rootCause(error)
  const failure = root instanceof Error ? root : new Error(String(root))
  if (root instanceof Error) {
    if (told.has(root)) return
    told.add(root)
  }
  for (const listener of listeners) {
    try {
      listener(failure)
    } catch (thrown) {
      queueMicrotask(() => {
        throw thrown
      })
    }
  }
}
