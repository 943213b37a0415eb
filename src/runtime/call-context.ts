import { AsyncLocalStorage } from 'node:async_hooks'
import type { ResolvedConfig } from '../config/resolve-config'
import type { JudgeCallSource, TestIdentity } from '../records/records'
import { runtimeState } from './state'

/** What a transport reports about one HTTP exchange it handled. @internal */
export interface ExchangeEvent {
  source: JudgeCallSource
  /** Cassette key, when cassettes are in use. */
  key?: string | undefined
  /** The entry's file, relative to the cassette folder (`/` separators), when one was used. */
  file?: string | undefined
  /**
   * The reply's JSON, or for a stream its last event that carries `usage`, when the transport
   * has it (its `usage` gives the tokens). A function: found only when a listener asks, off the
   * replay path.
   */
  reply?: (() => unknown) | undefined
  /**
   * How long the reply took, in milliseconds: measured for a live call (to a stream's end), the
   * recorded figure for a replayed one (`response.latencyMs`, else a stream's last event time).
   */
  latencyMs?: number | undefined
}

/**
 * What must be ambient, because no caller can pass it: the running test, which the agents' msw
 * handler and the network guard need when the user's code makes an HTTP call, across `await`s and
 * concurrent tests. What a judge call needs beyond this is an argument (`JudgeCallScope`).
 * @internal
 */
export interface CallContext {
  /** The test the call belongs to: named in cassette misses and stored as `recordedBy`. */
  test?: TestIdentity | undefined
  /**
   * The setup file's own handle on that test ({@link runAsTest}): Vitest's task and the test's
   * request sequence. Unset when a matcher registered without the setup file names the test.
   */
  running?: RunningTest | undefined
  /** Aborts the call (the test's signal: fires on timeout). */
  signal?: AbortSignal | undefined
  /**
   * The trial of a `describeEval` row run several times (`trials` > 1), from 1. Folded into the
   * cassette key, so that each trial's calls are recorded apart and replay as they were; unset
   * otherwise, so that no other key changes.
   */
  trial?: number | undefined
  /**
   * Set while a scorer runs (`withModelCallsAsJudgeCalls`): the model calls it makes through the
   * agents' path (msw, `createCassetteFetch`) are its judge's, heard of here. Ambient because a
   * Mastra or autoevals scorer's judge is a model client of its own, which rubricate hands nothing.
   */
  modelCalls?: ModelCallCapture | undefined
  /**
   * Whose HTTP request is being made, when it is rubricate's and not the agent's (Vitest and the
   * SDKs hand the network layer no caller). `'rubricate-live'`: one rubricate sends live itself
   * (a judge request, an agent call being recorded), which the fetch fallback and the network
   * guard leave alone. `'judge-model'`: a judge model's own provider request (an AI SDK model's),
   * whose judge call is its cassette entry already, so the agents' path lets it through.
   */
  transport?: 'rubricate-live' | 'judge-model' | undefined
  /**
   * Set by whatever records the scorer runs beneath it (a matcher, a loop check, an outer scorer
   * run): a plain `scorer.run()` records itself only when this is unset.
   */
  recordsScorerRuns?: boolean | undefined
}

// rubricate's one AsyncLocalStorage (ARCHITECTURE.md §12): the user's agent code awaits between the
// test and its HTTP calls, and Vitest hands the msw handler and the network guard no test. Kept in
// the runtime, so every copy of the module shares it: the setup file's copy sets it, the judge's
// copy reads it.
const part = runtimeState().process.callContext
part.storage ??= new AsyncLocalStorage<CallContext>()
const storage = part.storage as AsyncLocalStorage<CallContext>

/** Run `fn` with `patch` merged over the current context. @internal */
export function withCallContext<T>(patch: CallContext, fn: () => T): T {
  const defined = definedOnly(patch)
  // Nothing to change (a matcher without a cassette mode of its own): the context stays as it
  // is, and no new one is entered, which every promise made under it would pay for.
  if (defined === undefined) return fn()
  return storage.run({ ...storage.getStore(), ...defined }, fn)
}

/** One model call of the agents' path, as {@link ModelCallCapture.onModelCall} hears of it. @internal */
export interface ModelCallEvent extends ExchangeEvent {
  endpoint: string
  model?: string | undefined
}

/**
 * Who hears of the model calls a scorer makes through the agents' path, and the judge's side of
 * them: see {@link CallContext.modelCalls}. @internal
 */
export interface ModelCallCapture {
  /**
   * Told about every model call recorded or replayed: an adapted scorer counts its own model
   * calls as judge calls with it.
   */
  onModelCall(event: ModelCallEvent): void
  /**
   * Told of a model call whose event comes after its reply was returned (a stream, reported when
   * it ends and is written): the promise settles once {@link onModelCall} has heard of it.
   */
  onModelCallPending(settled: Promise<void>): void
  /**
   * The judge's live limits wrap the calls, their cost counts against `maxCost`, and the agents'
   * count leaves them out.
   */
  asJudge: ModelCallsAsJudge
}

/** The judge's side of a scorer's model calls: see {@link ModelCallCapture.asJudge}. @internal */
export interface ModelCallsAsJudge {
  /** Wrap one live request in the judge's limits (concurrency, `maxLiveCalls`, `maxCost`). */
  limit(
    config: ResolvedConfig,
    model: string | undefined,
    send: () => Promise<Response>,
  ): Promise<Response>
  /** Count a live reply's cost. */
  onLiveJson(config: ResolvedConfig, model: string | undefined, json: unknown): void
}

/**
 * One key's numbers in a test's sequence: how many were handed out, and those given back by a
 * request whose live reply was not recorded (a 503, a failed connection), which the next identical
 * request takes first. @internal
 */
export interface Occurrences {
  taken: number
  free: number[]
}

/** A test the setup file runs: its identity, and Vitest's task as an opaque handle. @internal */
export interface RunningTest {
  identity: TestIdentity
  task?: object | undefined
  /**
   * The numbers the test has given its identical requests so far, by key: the n-th identical
   * request is answered by the n-th reply recorded for it (ARCHITECTURE.md §7.10). Fresh for
   * every run of the test.
   */
  sequence?: Map<string, Occurrences> | undefined
}

// The tests running in this worker now (several under test.concurrent), in the shared state.
const running = part.running as Set<RunningTest>

/**
 * Run `fn` as `test`: the one place where the running test is kept (ARCHITECTURE.md §12). The call
 * context carries it (and the test's abort signal) across every `await` and `test.concurrent`;
 * while `fn` runs the test also counts as running in this worker, for code that lost the context.
 * @internal
 */
export async function runAsTest<T>(
  test: RunningTest,
  signal: AbortSignal | undefined,
  fn: () => T | Promise<T>,
): Promise<T> {
  // A retried test starts its sequence again, as it makes its requests again.
  test.sequence = new Map()
  const done = markTestRunning(test)
  try {
    return await withCallContext({ test: test.identity, running: test, signal }, fn)
  } finally {
    done()
  }
}

/**
 * Count `test` as running until the returned function is called: what {@link runAsTest} does
 * around its context, for a setup that follows tests with `beforeEach` and `afterEach`. @internal
 */
export function markTestRunning(test: RunningTest): () => void {
  running.add(test)
  return () => running.delete(test)
}

/**
 * The test whose code is running (`exact`), else the only test running in this worker: a request
 * whose callback lost the context (a pooled socket's) belongs to it when no other test runs.
 * `undefined` outside tests, and when several run and the context is lost.
 * @internal
 */
export function runningTest(): (RunningTest & { exact: boolean }) | undefined {
  const context = storage.getStore()
  if (context?.test) {
    const { task, sequence } = context.running ?? {}
    return { identity: context.test, task, sequence, exact: true }
  }
  if (running.size !== 1) return undefined
  const [only] = running
  return only && { ...only, exact: false }
}

/** The context of the running call, or an empty one. @internal */
export function currentCallContext(): CallContext {
  return storage.getStore() ?? {}
}

function definedOnly(patch: CallContext): CallContext | undefined {
  let out: Record<string, unknown> | undefined
  for (const key in patch) {
    const value = patch[key as keyof CallContext]
    if (value !== undefined) {
      out ??= {}
      out[key] = value
    }
  }
  return out as CallContext | undefined
}
