/**
 * The cassette session of one worker (ARCHITECTURE.md §7.7): which entries were used,
 * which requests missed, what failed, and the recordings still being written.
 *
 * How the Vitest setup file (`rubricate/setup`) drives it:
 *
 *     // at the top level, before any test file code runs, so module-scope clients are intercepted:
 *     const session = startCassetteServer({ updateSnapshots, runId, root })  // idempotent; no server
 *                                                       // when cassettes.server is 'external'
 *     aroundEach((run, { task, signal }) => runAsTest({ identity: testIdentity(task), task }, signal, run))
 *     afterAll(async (suite) => {
 *       await session.flush()                          // recordings still streaming in
 *       const usage = session.takeUsage()              // keys used and misses of this file, then cleared
 *       suite.meta.rubricateCassettes = usage          // survives sharding and --merge-reports
 *       // fail the file when usage.misses or session.takeErrors() is not empty: an agent's miss is an
 *       // HTTP 400 that user code may have swallowed.
 *     })
 *
 * The running test is not kept here: the call context keeps it (`runAsTest`, `runningTest()` in
 * src/runtime/call-context.ts), and the agent path falls back to the only test running when a request
 * lost its context (under `test.concurrent` with several running, its misses name the file).
 */
/** What one of the agent's model calls turned out to be. @internal */

import { testLabel as testLabelOf } from '../../config/paths'
import type { ResolvedConfig } from '../../config/resolve-config'
import type {
  AgentCallCounts,
  CassetteMissRecord,
  CassetteUsageRecord,
  TestIdentity,
} from '../../records/records'
import { runtimeState } from '../../runtime/state'

export type AgentCallOutcome = keyof AgentCallCounts

export class CassetteSession {
  readonly #runtime: { config(): ResolvedConfig }
  #agentCalls: AgentCallCounts = noAgentCalls()
  readonly #patternsMatched = new Set<string>()
  readonly #hostOnlyCalls = new Set<string>()
  readonly #used = new Set<string>()
  #misses: CassetteMissRecord[] = []
  #errors: Error[] = []
  readonly #pending = new Set<Promise<unknown>>()
  readonly #streams = new Set<OpenStream>()

  /**
   * A session whose usage reports `runtime`'s cassette mode, folder and patterns. The worker's
   * runtime creates its one session (`runtime.session`); tests make their own.
   */
  constructor(runtime: { config(): ResolvedConfig }) {
    this.#runtime = runtime
  }

  /** Keys of the entries served or recorded since the last {@link takeUsage}. */
  usedKeys(): string[] {
    return [...this.#used]
  }

  /** Replay-mode misses since the last {@link takeUsage}, judge and agent paths alike. */
  misses(): CassetteMissRecord[] {
    return [...this.#misses]
  }

  /**
   * Errors the agent path answered with an HTTP error instead of throwing (corrupt cassette,
   * secret refused, write failed): user code may have swallowed them.
   */
  errors(): Error[] {
    return [...this.#errors]
  }

  /** Wait for every recording still being written (streams finish in the background). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
  }

  /**
   * What this file did with cassettes, for `task.meta`; clears keys, misses and agent call counts
   * for the next file.
   */
  takeUsage(): CassetteUsageRecord {
    const { mode, dir, match } = this.#runtime.config().cassettes
    const usage: CassetteUsageRecord = {
      mode,
      dir,
      used: [...this.#used].sort(),
      misses: this.#misses,
      agentCalls: this.#agentCalls,
    }
    const configured = match.map(patternLabel)
    if (configured.length > 0 || this.#hostOnlyCalls.size > 0) {
      usage.patterns = {
        configured,
        matched: [...this.#patternsMatched].sort(),
        hostOnly: [...this.#hostOnlyCalls].sort(),
      }
    }
    this.#patternsMatched.clear()
    this.#hostOnlyCalls.clear()
    this.#used.clear()
    this.#misses = []
    this.#agentCalls = noAgentCalls()
    return usage
  }

  /** The errors of {@link errors}, cleared for the next file. */
  takeErrors(): Error[] {
    const errors = this.#errors
    this.#errors = []
    return errors
  }

  /**
   * Forget the usage, misses and errors kept for the file before this one: taken in its afterAll,
   * unless it failed before that ran (a file that breaks at import, in a worker that runs the next
   * file with `isolate: false`). @internal
   */
  clearFile(): void {
    this.#patternsMatched.clear()
    this.#hostOnlyCalls.clear()
    this.#used.clear()
    this.#misses = []
    this.#errors = []
    this.#agentCalls = noAgentCalls()
  }

  /** @internal */
  markUsed(key: string): void {
    this.#used.add(key)
  }

  /** Count one of the agent's model calls. @internal */
  countAgentCall(outcome: AgentCallOutcome): void {
    this.#agentCalls[outcome]++
  }

  /** Count the tokens of one of the agent's model calls, replayed or live. @internal */
  countAgentTokens(source: 'replayed' | 'live', tokens: number): void {
    this.#agentCalls.tokens ??= { live: 0, replayed: 0 }
    this.#agentCalls.tokens[source] += tokens
  }

  /**
   * Note what made a request a model call: the pattern that matched it, or its provider host
   * alone (a few such calls are kept, by host and path, to name in the report). @internal
   */
  notePatternUse(found: { by: string; pattern?: string | RegExp | undefined }, url: URL): void {
    if (found.pattern !== undefined) this.#patternsMatched.add(patternLabel(found.pattern))
    else if (found.by === 'host' && this.#hostOnlyCalls.size < 5) {
      this.#hostOnlyCalls.add(`${url.host}${url.pathname}`)
    }
  }

  /** @internal */
  recordMiss(miss: CassetteMissRecord): void {
    this.#misses.push(miss)
  }

  /** @internal */
  recordError(error: Error): void {
    this.#errors.push(error)
  }

  /**
   * End the streams still being recorded for `test` (every test: `undefined`) once they had
   * `graceMs` to finish: a stream that never ends would keep {@link flush} waiting until the hook
   * timed out. Each one ended is not recorded, and an error names it and the test.
   */
  async endStreams(test: TestIdentity | undefined, graceMs: number): Promise<void> {
    const open = [...this.#streams].filter(
      (stream) => test === undefined || sameTest(stream.test, test),
    )
    if (open.length === 0) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.allSettled(open.map((stream) => stream.done)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs)
      }),
    ])
    clearTimeout(timer)
    const label = test ? testLabelOf(test) : 'the test file'
    for (const stream of open) if (this.#streams.has(stream)) stream.end(label)
  }

  /** A stream being recorded for `test`; `end` stops it, naming what ended. @internal */
  trackStream(
    work: Promise<unknown>,
    test: TestIdentity | undefined,
    end: (endedBy: string) => void,
  ): void {
    const stream: OpenStream = { test, done: work, end }
    this.#streams.add(stream)
    this.track(work.finally(() => this.#streams.delete(stream)))
  }

  /** Keep `work` pending until it settles; {@link flush} waits for it. @internal */
  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => {},
      () => {},
    )
    this.#pending.add(settled)
    void settled.then(() => this.#pending.delete(settled))
  }
}

/** A `match` pattern as the report names it: the string, or the RegExp's literal. @internal */
export function patternLabel(pattern: string | RegExp): string {
  return typeof pattern === 'string' ? pattern : String(pattern)
}

function noAgentCalls(): AgentCallCounts {
  return { replayed: 0, recorded: 0, live: 0, failed: 0 }
}

interface OpenStream {
  test: TestIdentity | undefined
  done: Promise<unknown>
  end: (endedBy: string) => void
}

function sameTest(a: TestIdentity | undefined, b: TestIdentity): boolean {
  if (!a) return false
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id
  return a.file === b.file && a.name === b.name
}

/** Facts about the run that the setup file knows and the cassettes need. */
export interface CassetteRunFacts {
  /** Vitest runs with `-u`/`--update`: the default mode becomes `record`. */
  updateSnapshots?: boolean | undefined
  /** Shared by every worker of one run: names the scratch folder of run-wide counters. */
  runId?: string | undefined
  /** Project root: the cassette folder and scratch files resolve against it. */
  root?: string | undefined
  /** The Vitest config file of the run, absolute. */
  configFile?: string | undefined
}

/** Store the run's facts in the runtime's run part. @internal */
export function setCassetteRunFacts(facts: CassetteRunFacts): void {
  const { run } = runtimeState()
  if (facts.updateSnapshots !== undefined) run.updateSnapshots = facts.updateSnapshots
  if (facts.runId !== undefined) run.runId = facts.runId
  if (facts.root !== undefined) run.root = facts.root
  if (facts.configFile !== undefined) run.configFile = facts.configFile
}
