import type { JudgeCallSource } from '../records/records'
import { runningTest } from './call-context'
import { stateSlot } from './state'

/** One model call of a test, agent's or judge's, as a budget reads it (plain data). */
export interface ModelCallRecord {
  /** Whose call it was: the code under test's (`'agent'`), or rubricate's judge (`'judge'`). */
  caller: 'agent' | 'judge'
  /** The endpoint (`chat/completions`, `responses`, `embeddings`, `judge-model`...). */
  endpoint: string
  model?: string | undefined
  source: JudgeCallSource
  inputTokens?: number | undefined
  outputTokens?: number | undefined
  /** Replayed: as recorded; live: as measured. Absent when neither is known. */
  latencyMs?: number | undefined
  /** The cassette entry's file, relative to the cassette folder, when one was used. */
  cassetteFile?: string | undefined
}

// Each running test's calls, by its Vitest task (an opaque handle here): the log ends with it.
const logs = stateSlot('model-call-log', () => new WeakMap<object, ModelCallRecord[]>())

/** Add a call to the log of the test that made it (the running test); none outside a test. @internal */
export function logModelCall(call: ModelCallRecord): void {
  const task = runningTest()?.task
  if (!task) return
  let log = logs.get(task)
  if (!log) {
    log = []
    logs.set(task, log)
  }
  log.push(call)
}

/** The calls the running test has made so far, in order; empty outside a test. @internal */
export function loggedModelCalls(): ModelCallRecord[] {
  const task = runningTest()?.task
  return task ? [...(logs.get(task) ?? [])] : []
}
