import type { RubricateRecord, TestIdentity } from '../records/records'
import { currentCallContext } from './call-context'
import { runtimeState } from './state'

/** Receives every record that core code emits (loops, for now), with the test it belongs to. */
export type RecordListener = (
  record: RubricateRecord,
  context: { test?: TestIdentity | undefined },
) => void

const listeners = runtimeState().process.listeners.records

/**
 * Subscribe to records emitted by core code, such as each check of `runUntilComplete`. The Vitest
 * setup file uses it to put loops into `task.meta`; returns a function that unsubscribes.
 */
export function onRecord(listener: RecordListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tell every listener about a record. A throwing listener does not stop the others. @internal */
export function emitRecord(made: RubricateRecord): void {
  const { test, trial } = currentCallContext()
  // Complete before any listener stores it: the eval row's trial it was made in.
  const record = trial === undefined ? made : { ...made, trial }
  const context = { test }
  for (const listener of listeners) {
    try {
      listener(record, context)
    } catch (error) {
      queueMicrotask(() => {
        throw error
      })
    }
  }
}
