import { runningTest } from './call-context'
import { type ModelCallRecord, runtimeState } from './state'

// Declared with the runtime's parts, whose test part holds the logs.
export type { ModelCallRecord }

// Each running test's calls, by its Vitest task (an opaque handle here): the log ends with it.
const logs = runtimeState().test.modelCalls

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
