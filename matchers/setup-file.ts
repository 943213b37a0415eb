// What `rubricate/setup` does for each test file: registers the matchers (once per worker), takes
// the plugin's options, and follows each test of the file so that judge calls, agent calls and
// loops know which test they belong to. Vitest inlines `rubricate/setup` and evaluates it again
// before each file that shares a worker; this module is loaded once per worker, by Node, and the
// inlined file only calls it.
import {
  afterAll,
  aroundEach,
  beforeEach,
  expect,
  inject,
  type RunnerTestCase,
  type RunnerTestSuite,
} from 'vitest'
import { ensureAgentInterception, startCassetteServer } from '../src/cassettes/agents/msw-server'
import type { CassetteSession } from '../src/cassettes/run/cassette-session'
import {
  deserializePluginOptions,
  PROVIDED_OPTIONS_KEY,
  type ProvidedOptions,
} from '../src/config/plugin-options'
import { messages } from '../src/messages'
import type { RubricateRecord } from '../src/records/records'
import { onRecord } from '../src/runtime/record-hooks'
import { currentRuntime, type Runtime } from '../src/runtime/runtime'
import { onUndecided } from '../src/runtime/undecided-hooks'
import { currentOrOnlyTest, currentTest, runInTest, testIdentity } from './current-test'
import { toBeGroundedIn, toBePreferredOver } from './grounding-matchers'
import { recordInTest } from './record-in-test'
import { toBeSemanticallySimilarTo, toBeSimilarByEditDistance } from './similarity-matchers'
import { toAgreeWithLabels } from './to-agree-with-labels'
import { toHaveBeenInterrupted } from './to-have-been-interrupted'
import { toHaveCalledTool } from './to-have-called-tool'
import { toHaveStructuredResponse } from './to-have-structured-response'
import { toHaveToolCalls } from './to-have-tool-calls'
import { toHaveToolResult } from './to-have-tool-result'
import { toMatchTrajectory } from './to-match-trajectory'
import { toPassScorer } from './to-pass-scorer'
import { toSatisfyRubric } from './to-satisfy-rubric'
import { toStayWithinBudget } from './to-stay-within-budget'
import { closeTest, missKey, noteUndecided, openTest, takeFileUndecided } from './undecided-calls'

// How long a stream may go on being recorded after its test ended, before it is cut.
const STREAM_GRACE_MS = 1000

/**
 * Set rubricate up for the test file about to run: its hooks, its listeners and its part of the
 * runtime. `rubricate/setup` calls it before each test file.
 * @internal
 */
export function setUpFile(): void {
  // The worker's runtime (ARCHITECTURE.md §12): configuration, cassette stores and secrets, handed
  // to the cassette server and the undecided calls below. A setup file of the user's that ran
  // before this one and called configureRubricate created it already; it is the same one.
  const runtime = currentRuntime()
  extendExpectOnce(runtime)
  // The plugin's options (ARCHITECTURE.md §4.3). Without the plugin there are none, and the defaults apply.
  const provided = (inject as (key: string) => unknown)(PROVIDED_OPTIONS_KEY) as
    | ProvidedOptions
    | undefined
  if (provided) runtime.setPlugin(deserializePluginOptions(provided))

  const session = startFileSession(runtime, provided)
  // What `configureRubricate` set before this file (setup files that ran before this one) is what
  // the next file starts with: a test file's own `configureRubricate` ends with the file, as it
  // does when each file has its own worker. Setup files after this one run again for every file.
  const configuredBefore = runtime.layers.configured

  // Without the plugin, `vitest -u` is read per test (`followUpdateFlag`).
  if (!provided) followUpdateFlag(runtime.run)

  // Everything a test runs (its hooks included) knows its test: matchers record into it even with
  // the global `expect` under test.concurrent, and judge and agent calls carry its identity and
  // abort signal down to the cassettes.
  aroundEach((runTest, context) => followTest(runtime, session, runTest, context))

  // Every miss and judge error, wherever it is caught, counts against the test that made it (the
  // test whose code runs, else the only test running), or against the file outside any test.
  // Subscribed for this file (the runtime's file part ends it before the next file).
  runtime.file.subscriptions.push(
    onUndecided((error) => noteUndecided(runtime, error, currentOrOnlyTest())),
  )

  // Loops run by the test (`runUntilComplete`) and plain `scorer.run()` calls land in its
  // `task.meta.rubricate`: one record per loop (a later record of the same loop replaces the
  // earlier one), one per plain run. Subscribed for this file, as above.
  runtime.file.subscriptions.push(onRecord(recordLoop))

  // A miss or a judge error that no test answered for (made in beforeAll or at module scope, and
  // caught there) fails the file, as do cassette errors the agent's client got. Vitest parses a
  // hook's first parameter as a fixture list: it must be a destructuring pattern.
  // biome-ignore lint/correctness/noEmptyPattern: no fixtures are needed, only the file suite
  afterAll(async ({}, suite) => endFile(session, runtime, configuredBefore, suite))
}

// rubricate's msw server and this file's part of the runtime.
function startFileSession(
  runtime: Runtime,
  provided: ProvidedOptions | undefined,
): CassetteSession {
  // rubricate's msw server, intercepting before any test file code runs, so that agents whose clients
  // are built at module scope are recorded and replayed too; on msw 2 it starts at the worker's first
  // request, through gates installed now (deferred-server.ts). Once per worker; none when the plugin
  // says `cassettes.server: 'external'` (the user attaches rubricate to their own server).
  // Without msw, agents' calls are not intercepted, with one notice: the plugin prints it once per
  // run, so a worker prints it only when there is no plugin.
  const session = startCassetteServer(
    {
      updateSnapshots: provided?.updateSnapshots,
      runId: provided?.runId,
      root: provided?.root,
      configFile: provided?.configFile,
    },
    { runtime, announceMissingMsw: !provided, deferServer: true },
  )

  // With `isolate: false` a worker runs file after file in one module graph, and Vitest evaluates
  // `rubricate/setup` again before each, which calls this: whatever is kept per file is set up
  // here, for this file. A file whose afterAll never ran (it failed at import) left its cassette
  // usage, misses and undecided calls behind: they were its own and it failed already, so the file
  // about to run starts with none of them instead of failing for them. The runtime's file part
  // starts empty, and the previous file's listeners end (a listener kept from the first file's run
  // of this module would still close over that run's module state).
  session.clearFile()
  runtime.startFile()
  return session
}

// Without the plugin, `vitest -u` is read from the snapshot state, which Vitest sets per test
// (it is there in beforeEach, not yet in aroundEach): its getter `snapshotUpdateState` from
// Vitest 4.1.x on, the field `_updateSnapshot` in 4.1.0 (the lowest the peer range allows, the
// `min` lane), hence the shape named here. With the plugin, the flag comes from the run's config
// (`snapshotOptions.updateSnapshot`).
function followUpdateFlag(run: Runtime['run']): void {
  beforeEach(() => {
    const snapshot = expect.getState().snapshotState as unknown as
      | { snapshotUpdateState?: unknown; _updateSnapshot?: unknown }
      | undefined
    const update = snapshot?.snapshotUpdateState ?? snapshot?._updateSnapshot
    run.updateSnapshots = update === 'all'
  })
}

// Once per `expect`: files that share a worker share Vitest's `expect`, and extending it again
// before each file is work the suite figure of shared workers shows (docs/guide/benchmarks.md).
function extendExpectOnce(runtime: Runtime): void {
  const extended = runtime.process.extendedExpects
  if (extended.has(expect)) return
  expect.extend({
    toSatisfyRubric,
    toPassScorer,
    toHaveCalledTool,
    toHaveToolCalls,
    toHaveBeenInterrupted,
    toHaveStructuredResponse,
    toHaveToolResult,
    toMatchTrajectory,
  })
  expect.extend({ toAgreeWithLabels })
  expect.extend({
    toBeSemanticallySimilarTo,
    toBeSimilarByEditDistance,
    toStayWithinBudget,
    toBeGroundedIn,
    toBePreferredOver,
  })
  extended.add(expect)
}

// One test, run inside its identity; then what it left open is closed, and it fails if a call of
// its own could not be decided.
async function followTest(
  runtime: Runtime,
  session: CassetteSession,
  runTest: () => Promise<unknown>,
  context: { task: RunnerTestCase; signal: AbortSignal },
): Promise<void> {
  const task = context.task
  const test = testIdentity(task)
  // msw 3: a server of the project's that stopped since also stopped rubricate's.
  ensureAgentInterception()
  openTest(runtime, task)
  let undecided: ReturnType<typeof closeTest> = { errors: [], unmet: [] }
  // The test runs until what it left behind is closed: a stream cut now is still its own.
  await runInTest(task, context.signal, async () => {
    try {
      await runTest()
    } finally {
      // The test's end (or timeout) ends the streams it left open: a stream that never ends
      // would hold afterAll until its hook timed out.
      await session.endStreams(test, STREAM_GRACE_MS)
      undecided = closeTest(runtime, task)
    }
  })
  failIfUndecided(task, undecided)
}

// A test whose calls could not be decided fails, unless its own failure already shows each error
// (a matcher's throw that reached Vitest, or a client's that the test did not catch). Under
// test.fails it fails in any case: Vitest turns a failure into a pass after every hook, so the
// test stops being an expected failure, and fails with the reason.
function failIfUndecided(
  task: RunnerTestCase,
  { errors: undecided, unmet }: { errors: readonly Error[]; unmet: readonly string[] },
): void {
  // An undecided call the test said it expects, and none came: the test did not test what it says.
  // An unexpected undecided call is said first: it is the likelier cause.
  const expectedNone =
    unmet.length > 0 && task.result?.state !== 'fail'
      ? new Error(messages.expectedUndecidedNone(unmet))
      : undefined
  if (undecided.length === 0) {
    if (expectedNone) throw expectedNone
    return
  }
  const underTestFails = task.fails === true
  // The one write to Vitest's task (ARCHITECTURE.md §9): no public API fails a test.fails test,
  // and failing its file from afterAll instead would report the test itself as passed.
  if (underTestFails) (task as { fails?: boolean | undefined }).fails = false
  const shown =
    !underTestFails && task.result?.state === 'fail'
      ? (task.result.errors ?? []).map((error) => String(error.message ?? ''))
      : []
  const hidden = undecided.filter(
    (error) => !shown.some((message) => message.includes(missKey(error) ?? error.message)),
  )
  if (hidden.length === 0) {
    if (expectedNone) throw expectedNone
    return
  }
  const code = (error: Error) => {
    const { code } = error as { code?: unknown }
    return typeof code === 'string' ? code : error.name
  }
  throw new Error(
    messages.undecidedInTest(
      underTestFails,
      hidden.map((error) => ({ code: code(error), message: error.message })),
    ),
  )
}

// A loop's or a plain scorer run's record, into the test whose code made it.
function recordLoop(record: RubricateRecord): void {
  const task = currentTest()
  if (task) recordInTest(task, record)
}

// The error messages of the file and its suites and tests: a miss thrown up to beforeAll was
// shown there, and is not repeated for the file.
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

// The file's end: its cassette usage into the file task's meta (so usage survives sharding and
// --merge-reports), and what no test answered for fails the file.
async function endFile(
  session: CassetteSession,
  runtime: Runtime,
  configuredBefore: Runtime['layers']['configured'],
  suite: RunnerTestSuite,
): Promise<void> {
  await session.endStreams(undefined, STREAM_GRACE_MS)
  await session.flush()
  // Taken with the file's own configuration (its mode and folder), then that ends with the file.
  let usage: ReturnType<typeof session.takeUsage>
  try {
    usage = session.takeUsage()
  } finally {
    runtime.layers.configured = configuredBefore
  }
  ;(suite.meta as { rubricateCassettes?: typeof usage }).rubricateCassettes = usage
  const { outside, claimed } = takeFileUndecided(runtime)
  const failures = testErrorMessages([suite])
  const shown = (text: string) => failures.some((message) => message.includes(text))
  const unreported = usage.misses.filter((miss) => !claimed.has(miss.key) && !shown(miss.key))
  const refused = (error: Error) =>
    (error as { code?: unknown }).code === 'RUBRICATE_NETWORK_BLOCKED'
  const judgeErrors = outside.filter(
    (error) => missKey(error) === undefined && !refused(error) && !shown(error.message),
  )
  // Connections refused outside any test (module scope, beforeAll, after a test ended), once
  // each: a client retries a refused connection.
  const errors = [
    ...session.takeErrors(),
    ...new Map(
      outside
        .filter((error) => refused(error) && !shown(error.message))
        .map((error) => [error.message, error]),
    ).values(),
  ]
  if (unreported.length > 0 || errors.length > 0 || judgeErrors.length > 0) {
    throw new Error(
      messages.cassetteFailuresInFile(
        unreported.map((miss) => miss.message),
        errors.map((error) => error.message),
        judgeErrors.map((error) => error.message),
      ),
    )
  }
}
