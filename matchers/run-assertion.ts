import { setMaxListeners } from 'node:events'
import type { MatcherState, RunnerTestCase } from 'vitest'
import { isRubricateError, judgeCallsOf, rootCause, UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { isThenable, outputText, recordedTexts } from '../src/output'
import { terminalText } from '../src/output-safety/terminal-text'
import type { RubricateRecord } from '../src/records/records'
import { currentCallContext, withCallContext } from '../src/runtime/call-context'
import type { RunChoices } from '../src/runtime/run-choices'
import { reportUndecided } from '../src/runtime/undecided-hooks'
import { currentTest, identityOf } from './current-test'
import type { EvalAssertion } from './eval-assertion'
import type { Evaluation } from './failure-message'
import { recordInTest } from './record-in-test'

type MatcherResult = { pass: boolean; message: () => string }
type Fields = Partial<RubricateRecord> & Pick<RubricateRecord, 'status'>

/** One assertion: what to run and how to explain a failure. @internal */
export interface Assertion {
  kind: 'rubric' | 'scorer' | 'calibration'
  matcher:
    | 'toSatisfyRubric'
    | 'toPassScorer'
    | 'toAgreeWithLabels'
    | 'toBeSemanticallySimilarTo'
    | 'toBeSimilarByEditDistance'
    | 'toBeGroundedIn'
    | 'toBePreferredOver'
    | 'toStayWithinBudget'
  /** The matcher's `this`. */
  state: MatcherState & { task?: Readonly<RunnerTestCase> | undefined }
  received: unknown
  /** The `expected` label of the matcher hint. */
  expectedLabel: string
  /** The `received` label of the matcher hint. Default `'output'`. */
  receivedLabel?: string | undefined
  /** The text recorded as the output preview. Default: `outputText(received)`. */
  preview?: ((received: unknown) => string) | undefined
  /**
   * The task the output answers (the matcher's `input` option), recorded for the report page.
   * Read whatever the options hold: a value that is no option object gives none. Default: none.
   */
  input?: (() => unknown) | undefined
  /** The eval row and turn the assertion judges, when `describeEval` made it. Default: none. */
  eval?: EvalAssertion | undefined
  /**
   * The scorer's id as known before it runs, so an assertion that errors still names its scorer.
   * Must not throw. Default: none.
   */
  scorerId?: (() => string | undefined) | undefined
  /**
   * Runs the scorer, with `call` for its judge calls (put in the run's choices); its errors make
   * the assertion fail in both directions.
   */
  evaluate(call: AssertionCall): Promise<Evaluation>
  /** The failure text under the hint, for an assertion that failed as written. */
  explain(evaluation: Evaluation, negated: boolean, text: string): string
}

/**
 * What the assertion knows of its test, made where it starts and handed to `evaluate`: its scorer
 * runs carry it to their judge calls as a value (`RunChoices`), setup file or not. @internal
 */
export type AssertionCall = Pick<RunChoices, 'test' | 'signal'>

/**
 * The plumbing every rubricate matcher shares (ARCHITECTURE.md §8.2): the not-awaited guard, the test's
 * identity and abort signal handed to `evaluate` for the scorer run's choices (the matcher adds its
 * cassette mode), errors that fail with or without `.not`, and one `RubricateRecord` per
 * assertion in `task.meta.rubricate`.
 * @internal
 */
export async function runAssertion(assertion: Assertion): Promise<MatcherResult> {
  const run = startRun(assertion)
  const signal = quietSignal(run.task?.context?.signal)
  try {
    return await decide(run, signal)
  } catch (error) {
    // The skip of `notScorable: 'skip'`, on its way to Vitest's runner.
    if ((error as { code?: unknown } | null)?.code === 'VITEST_PENDING') throw error
    return await undecided(run, error, signal)
  }
}

/** One assertion on its way: where it stores its record, and how far it got. */
interface AssertionRun {
  assertion: Assertion
  negated: boolean
  /** The test whose record this is; none in beforeAll/afterAll, where nothing is recorded. */
  task: Readonly<RunnerTestCase> | undefined
  started: number
  /** The call site, captured while the test file's frame is still on the stack. */
  site: Error
  /** The output's text, once read. */
  text: string
  settled: boolean
  /** The test ended before the assertion settled (it was not awaited). */
  abandoned: boolean
  /** The annotations of the assertion's record, on their way to the main process. */
  annotations: Promise<unknown>[]
}

function startRun(assertion: Assertion): AssertionRun {
  const run: AssertionRun = {
    assertion,
    negated: Boolean(assertion.state.isNot),
    // The test whose code runs (right under test.concurrent with the global expect), else the
    // test the expect is bound to.
    task: currentTest() ?? assertion.state.task,
    started: performance.now(),
    // Gone after the first await; its text is only formatted for an assertion that fails.
    site: callSite(),
    text: '',
    settled: false,
    abandoned: false,
    annotations: [],
  }
  onTestFinished(run.task?.context, () => notAwaited(run))
  return run
}

// The guard: an assertion the test did not await fails the test once it ends.
function notAwaited(run: AssertionRun): void {
  if (run.settled) return
  run.abandoned = true
  // A test that timed out or was cancelled already failed for that reason; saying "not
  // awaited" on top would send the user after the wrong bug.
  if (run.task?.context?.signal?.aborted) return
  const message = messages.matcherNotAwaited(run.assertion.matcher)
  store(run, {
    status: 'error',
    error: { code: 'RUBRICATE_USAGE', message },
    ...recordedTexts(run.text, inputOf(run.assertion)),
  })
  throw new Error(message)
}

function record(run: AssertionRun, fields: Fields): void {
  if (!run.abandoned) run.annotations = store(run, fields)
}

function store(run: AssertionRun, fields: Fields): Promise<unknown>[] {
  const { task } = run
  if (!task) return []
  const entry: RubricateRecord = {
    v: 1,
    kind: run.assertion.kind,
    negated: run.negated,
    judgeCalls: [],
    durationMs: performance.now() - run.started,
    outputPreview: '',
    ...fields,
  }
  if (entry.status !== 'pass') entry.location = locationIn(run.site, task.file?.filepath)
  // The eval row's turn and trial that the assertion judges, which the reports name.
  const turn = run.assertion.eval?.turn
  const { trial } = currentCallContext()
  if (turn !== undefined) entry.turn = turn
  if (trial !== undefined) entry.trial = trial
  return recordInTest(task, stripUndefined(entry))
}

// Run the scorer and record its verdict: pass or fail as written, `.not` applied.
async function decide(run: AssertionRun, signal: AbortSignal | undefined): Promise<MatcherResult> {
  const { assertion, task, negated } = run
  if (isThenable(assertion.received)) throw new UsageError(messages.outputIsPromise())
  run.text = assertion.preview
    ? assertion.preview(assertion.received)
    : outputText(assertion.received)
  const call: AssertionCall = {
    test: task ? identityOf(task as RunnerTestCase) : undefined,
    signal,
  }
  // Only the mark for the scorer runs beneath is ambient: a user's scorer may start runs of its own.
  const evaluation = await withCallContext({ recordsScorerRuns: true }, () =>
    assertion.evaluate(call),
  )
  if (evaluation.skip !== undefined) {
    run.settled = true
    // Vitest's own skip: it throws, and the test is reported as skipped with the note.
    if (task?.context?.skip) task.context.skip(evaluation.skip)
    throw new UsageError(messages.skipOutsideTest(evaluation.skip))
  }
  const pass = evaluation.satisfied !== negated
  record(run, { status: pass ? 'pass' : 'fail', ...evaluatedFields(run, evaluation) })
  run.settled = true
  // After the test ended, a failure could only become an unhandled rejection blamed on another
  // test; the guard has already failed this one (Vitest throws when `pass` equals `isNot`).
  if (run.abandoned) return { pass: !negated, message: () => '' }
  // A failing assertion ends the test's body, and Vitest would no longer await its annotations.
  if (!pass) await Promise.all(run.annotations)
  return {
    pass: evaluation.satisfied,
    // The body quotes the output and the judge's reasoning: it passes the terminal gate.
    message: () =>
      `${hint(assertion, negated)}\n\n${terminalText(assertion.explain(evaluation, negated, run.text))}`,
  }
}

function evaluatedFields(run: AssertionRun, evaluation: Evaluation): Omit<Fields, 'status'> {
  return {
    score: evaluation.score,
    threshold: evaluation.threshold,
    ...(evaluation.direction ? { direction: evaluation.direction } : {}),
    share: evaluation.share,
    metadata: evaluation.metadata,
    aggregate: evaluation.aggregate,
    scorers: evaluation.parts,
    verdicts: evaluation.verdicts,
    reason: evaluation.reason,
    judgeCalls: evaluation.judgeCalls,
    ...recordedTexts(run.text, inputOf(run.assertion)),
    scorerId: evaluation.scorerId,
    calibration: evaluation.calibration,
  }
}

// An assertion that could not be decided fails with or without `.not`, naming the root cause.
async function undecided(
  run: AssertionRun,
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<MatcherResult> {
  const root = rootCause(error)
  // The failure may be caught (`test.fails`, a `try`, `.rejects`): the setup file hears of it all
  // the same. Not after a timeout or a cancel, which failed the test already.
  if (!signal?.aborted) reportUndecided(root)
  const code = isRubricateError(root) ? root.code : root instanceof Error ? root.name : 'Error'
  const message = root instanceof Error ? root.message : String(root)
  // The judge calls made before the failure went to the provider too: the summary counts them.
  record(run, {
    status: 'error',
    error: { code, message },
    judgeCalls: judgeCallsOf(error),
    ...recordedTexts(run.text, inputOf(run.assertion)),
    scorerId: run.assertion.scorerId?.(),
  })
  run.settled = true
  if (run.abandoned) return { pass: !run.negated, message: () => '' }
  await Promise.all(run.annotations)
  // A rubricate error's message is all there is to say (its stack is inside the SDK); another
  // error (a scorer of the user's that threw) keeps its stack as the cause.
  const failure = new Error(
    messages.matcherUndecided(hint(run.assertion, run.negated), code, terminalText(message)),
    isRubricateError(root) ? undefined : { cause: root },
  )
  failure.name = root instanceof Error ? root.name : 'Error'
  Object.assign(failure, { code })
  throw failure
}

// The task given to the matcher, for the record; an options getter that throws records none (the
// matcher reports bad options itself).
function inputOf(assertion: Assertion): unknown {
  try {
    return assertion.input?.()
  } catch {
    return undefined
  }
}

// Frames captured for the call site: the matcher's three and Vitest's three, then the test file's
// (or a few helpers' before it); no more, as every assertion captures them for what only a
// failure shows.
const CALL_SITE_FRAMES = 12

function callSite(): Error {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = CALL_SITE_FRAMES
  const site = new Error('call site')
  Error.stackTraceLimit = limit
  return site
}

/** The line and column of the first frame in the test file, as Vitest locates a test. @internal */
export function locationIn(
  site: Error,
  file: string | undefined,
): { line: number; column: number } | undefined {
  if (!file) return undefined
  for (const frame of (site.stack ?? '').split('\n')) {
    const at = frame.indexOf(file)
    if (at < 0) continue
    const match = /:(\d+):(\d+)\)?\s*$/.exec(frame.slice(at + file.length))
    if (match) return { line: Number(match[1]), column: Number(match[2]) }
  }
  return undefined
}

// The guard, registered without a timeout (0): it is synchronous, and Vitest then neither wraps
// it in a timer nor arms one when it runs after the test. Vitest also captures a stack for each
// hook, to report one that times out, which this one cannot: the capture is skipped, as it cost
// more than the rest of the guard (when registering throws, it throws again with its stack).
function onTestFinished(context: RunnerTestCase['context'] | undefined, guard: () => void): void {
  if (!context) return
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    context.onTestFinished(guard, 0)
  } catch {
    Error.stackTraceLimit = limit
    context.onTestFinished(guard, 0)
  } finally {
    Error.stackTraceLimit = limit
  }
}

// The test's signal, handed down as it is (no signal of the assertion's own on the replay path).
// Every judge call of the assertion listens to it, and so many listeners on one signal make Node
// warn of a leak that is not one: the warning is turned off for it, once per test.
const quietSignals = new WeakSet<AbortSignal>()

function quietSignal(testSignal: AbortSignal | undefined): AbortSignal | undefined {
  if (testSignal && !quietSignals.has(testSignal)) {
    setMaxListeners(0, testSignal)
    quietSignals.add(testSignal)
  }
  return testSignal
}

function hint(assertion: Assertion, negated: boolean): string {
  return assertion.state.utils.matcherHint(
    `${negated ? '.not' : ''}.${assertion.matcher}`,
    assertion.receivedLabel ?? 'output',
    assertion.expectedLabel,
    { promise: assertion.state.promise },
  )
}

// Records travel as JSON; an explicit `undefined` would only add noise to snapshots.
// Without the [key, value] pairs of `Object.entries`: this runs on every assertion.
function stripUndefined(record: RubricateRecord): RubricateRecord {
  const source = record as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key in source) {
    const value = source[key]
    if (value !== undefined) out[key] = value
  }
  return out as unknown as RubricateRecord
}
