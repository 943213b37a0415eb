// rubricate/setup: the Vitest setup file. Registers the matchers, takes the plugin's options,
// and follows each test so that judge calls, agent calls and loops know which test they belong to.
import { afterAll, aroundEach, beforeEach, expect, inject } from 'vitest'
import './augment'
import { withCallContext } from '../src/call-context'
import { startCassetteServer } from '../src/cassettes/agents/msw-server'
import { setPluginConfig } from '../src/config'
import { messages } from '../src/messages'
import {
  deserializePluginOptions,
  PROVIDED_OPTIONS_KEY,
  type ProvidedOptions,
} from '../src/plugin-options'
import { onRecord } from '../src/record-hooks'
import type { RubricateRecord } from '../src/records'
import { getState, stateSlot } from '../src/state'
import { currentTest, runInTest, testIdentity } from './current-test'
import { takeReportedMisses } from './reported-misses'
import { toPassScorer } from './to-pass-scorer'
import { toSatisfyRubric } from './to-satisfy-rubric'

expect.extend({ toSatisfyRubric, toPassScorer })

// The plugin's options (DESIGN 4.3). Without the plugin there are none, and the defaults apply.
const provided = (inject as (key: string) => unknown)(PROVIDED_OPTIONS_KEY) as
  | ProvidedOptions
  | undefined
if (provided) setPluginConfig(deserializePluginOptions(provided))

// rubricate's msw server, listening before any test file code runs, so that agents whose clients
// are built at module scope are recorded and replayed too. Once per worker; none when the plugin
// says `cassettes.server: 'external'` (the user attaches rubricate to their own server).
const session = startCassetteServer({
  updateSnapshots: provided?.updateSnapshots,
  runId: provided?.runId,
  root: provided?.root,
})
const run = getState().run

// Without the plugin, `vitest -u` is read from the snapshot state, which Vitest sets per test
// (it is there in beforeEach, not yet in aroundEach).
if (!provided) {
  beforeEach(() => {
    const snapshot = expect.getState().snapshotState as
      | { snapshotUpdateState?: unknown }
      | undefined
    run.updateSnapshots = snapshot?.snapshotUpdateState === 'all'
  })
}

// Everything a test runs (its hooks included) knows its test: matchers record into it even with
// the global `expect` under test.concurrent, and judge and agent calls carry its identity and
// abort signal down to the cassettes.
aroundEach(async (runTest, context) => {
  const task = context.task
  const test = testIdentity(task)
  // The session's own notion of the running test is only a fallback (one test at a time).
  session.setTest(test)
  try {
    await runInTest(task, () => withCallContext({ test, signal: context.signal }, runTest))
  } finally {
    session.setTest(undefined)
  }
})

// Loops run by the test (`runUntilComplete`) and plain `scorer.run()` calls land in its
// `task.meta.rubricate`: one record per loop (a later record of the same loop replaces the
// earlier one), one per plain run. Subscribed once per worker.
stateSlot('setup-loop-listener', () => onRecord(recordLoop))

function recordLoop(record: RubricateRecord): void {
  const task = currentTest()
  if (!task) return
  const meta = task.meta as { rubricate?: RubricateRecord[] }
  meta.rubricate ??= []
  const records = meta.rubricate
  const index = record.loopId ? records.findIndex((r) => r.loopId === record.loopId) : -1
  if (index >= 0) records[index] = record
  else records.push(record)
}

// The error messages of the file's failed tests: a miss that failed its test (the agent's client
// threw the HTTP 400 up to the test) was shown there, and is not repeated for the file.
interface FinishedTask {
  tasks?: readonly FinishedTask[] | undefined
  result?: { errors?: readonly { message?: unknown }[] | undefined } | undefined
}
function testErrorMessages(tasks: readonly FinishedTask[]): string[] {
  return tasks.flatMap((task) => [
    ...(task.result?.errors ?? []).map((error) => String(error.message ?? '')),
    ...testErrorMessages(task.tasks ?? []),
  ])
}

// What the file did with cassettes goes into the file task's meta, so usage survives sharding and
// --merge-reports. A replay miss that no assertion reported (an agent's model call answered with
// an HTTP 400 that the code under test may have caught) fails the file.
// Vitest parses a hook's first parameter as a fixture list: it must be a destructuring pattern.
// biome-ignore lint/correctness/noEmptyPattern: no fixtures are needed, only the file suite
afterAll(async ({}, suite) => {
  await session.flush()
  const usage = session.takeUsage()
  ;(suite.meta as { rubricateCassettes?: typeof usage }).rubricateCassettes = usage
  const reported = takeReportedMisses()
  const failures = testErrorMessages(suite.tasks)
  const unreported = usage.misses.filter(
    (miss) => !reported.has(miss.key) && !failures.some((message) => message.includes(miss.key)),
  )
  const errors = session.takeErrors()
  if (unreported.length > 0 || errors.length > 0) {
    throw new Error(
      messages.cassetteFailuresInFile(
        unreported.map((miss) => miss.message),
        errors.map((error) => error.message),
      ),
    )
  }
})
