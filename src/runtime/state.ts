import type { JudgeCallSource, RubricateRecord, TestIdentity } from '../records/records'

// Not `Symbol.for('rubricate')`: that held the state of earlier versions in another shape, and a
// copy of one of those in the same process must not read this one's.
const STATE_KEY: unique symbol = Symbol.for('rubricate.runtime') as never

/**
 * Everything rubricate keeps in a process, in four parts named by how long they live
 * (ARCHITECTURE.md §12). One object on `globalThis`, so that two copies of the module (a bundled
 * and an installed one, the setup file's and the package's) share it. The worker's runtime
 * (`runtime.ts`) is this same object with the configuration, the stores and the session added.
 * The parts are plain data typed here, below every module that owns a piece of them, so that
 * no type has to climb back up.
 * @internal
 */
export interface RuntimeState {
  /** Until the process exits: run-once guards, what they installed, once-only notices. */
  readonly process: ProcessPart
  /** Facts of the Vitest run, the same in every worker; set by the setup file. */
  readonly run: RunPart
  /** One test file: emptied by the setup file before each file (`isolate: false` workers). */
  file: FilePart
  /** The running tests, each keyed by its own handle and dropped when it ends. */
  readonly test: TestPart
}

/** @internal */
export interface ProcessPart {
  /** The run-once guards: each is set by the install it guards, never reset. */
  installed: {
    /** `net.Socket.prototype.connect` is guarded (network-guard.ts). */
    networkGuard: boolean
    /** The TCP handles' `connect` is guarded, at the first connection (network-guard.ts). */
    networkHandles: boolean
    /** `globalThis.fetch` is wrapped under msw 2 (fetch-fallback.ts). */
    fetchFallback: boolean
    /** msw 3's interceptor source is followed (msw-server.ts). */
    serverFollower: boolean
  }
  /** The `expect`s the setup file has extended: files that share a worker share one. */
  extendedExpects: WeakSet<object>
  /** rubricate's own msw server (msw-server.ts). */
  mswServer: {
    server: OwnMswServer | undefined
    /** Inside rubricate's own restart or stop of its server. */
    busy: boolean
    /** The notice that msw is missing was printed. */
    mswAbsentTold: boolean
  }
  /** The gates that start the msw server at the first request (deferred-server.ts). */
  deferredServer: { pending: (() => void) | undefined; gates: DeferredGate[] }
  /** msw 3's last `request` listener (interceptor-fallback.ts); set once installed. */
  interceptorFallback: {
    listener: ((event: any) => Promise<void>) | undefined
    /** One request may be emitted by two interceptors (fetch over a socket): answered once. */
    seen: WeakSet<Request>
  }
  /** Live judge calls in flight, waiting, and counted without a run id (live-limits.ts). */
  liveLimits: { active: number; queue: (() => void)[]; calls: number; cost: number }
  /** The secrets known to this process (redaction.ts), created at the first use. */
  secrets: SecretRegistry | undefined
  /** Listeners of undecided calls (undecided-hooks.ts) and of core records (record-hooks.ts). */
  listeners: {
    undecided: Set<(error: Error) => void>
    records: Set<(record: RubricateRecord, context: { test?: TestIdentity | undefined }) => void>
  }
  /** What was said once already: each undecided error, each old or error-holding entry's key. */
  told: { undecided: WeakSet<object>; oldEntries: Set<string>; replayedErrors: Set<string> }
  /**
   * A function step's internals, by its context object (scorer/step-internals.ts, which gives the
   * value its type): beside the context, invisible to Mastra-shaped step code.
   */
  stepInternals: WeakMap<object, unknown>
  /**
   * The call context's storage, created by the first copy of call-context.ts that loads, and the
   * tests running now: typed there (`unknown` here), since only that file reads or writes them.
   */
  callContext: { storage: unknown; running: Set<unknown> }
}

/** @internal */
export interface RunPart {
  /** Vitest was started with `-u` / `--update`. */
  updateSnapshots: boolean
  /** Run id shared by all workers of one Vitest run. */
  runId?: string | undefined
  /** Project root; relative folders resolve against it. Default `process.cwd()`. */
  root?: string | undefined
  /** The Vitest config file of the run (absolute), kept in the record commands of messages. */
  configFile?: string | undefined
}

/** @internal */
export interface FilePart {
  /** The setup file's subscriptions for this file, ended before the next file subscribes. */
  subscriptions: (() => void)[]
  /** Undecided calls no test made (module scope, `beforeAll`): the file fails for them. */
  undecidedOutside: Error[]
  /** Miss keys a test answered for: the file does not fail for them again. */
  claimedMisses: Set<string>
}

/** @internal */
export interface TestPart {
  /** Each running test's undecided calls, by its Vitest task (matchers/undecided-calls.ts). */
  undecided: Map<object, Error[]>
  /** The undecided calls each test expects (`expectUndecided`), by its task. */
  expectedUndecided: Map<object, ExpectedUndecided[]>
  /** Each test's model calls, by its task (model-call-log.ts). */
  modelCalls: WeakMap<object, ModelCallRecord[]>
  /** The refusals told in each run of a test, by the run's sequence map (network-refusal.ts). */
  refusalsTold: WeakMap<object, Set<string>>
}

/**
 * An undecided call a test expects: calls with this code made while it is open do not fail the
 * test; `seen` counts them, so an expectation that nothing met fails instead.
 * @internal
 */
export interface ExpectedUndecided {
  code: string
  open: boolean
  seen: number
}

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

/** A known secret value and where it came from (an environment variable, a header...). @internal */
export interface Secret {
  value: string
  label: string
  /** What replaces it; set by `secretSet` (the placeholder of the value it encodes). */
  placeholder?: string | undefined
}

/**
 * The worker's known secrets: the environment's, read afresh by {@link SecretRegistry.refresh}
 * whenever a request is prepared and before anything is printed or written (never on a clock,
 * so a secret set a moment ago is never printed), and those learnt from the requests of the run
 * (an `Authorization` header whose key is in no variable).
 * @internal
 */
export interface SecretRegistry {
  /** Read the environment now; returns its secrets and every secret learnt so far. */
  refresh(): Secret[]
  /** Remember secrets a request carried, so output printed later is redacted of them too. */
  learn(secrets: readonly Secret[]): void
}

/** The parts of rubricate's own msw server that it starts, restarts and stops. @internal */
export interface OwnMswServer {
  listen(options: object): void
  close(): void
}

/** A function replaced by a gate until the msw server starts (deferred-server.ts). @internal */
export interface DeferredGate {
  target: object
  name: string
  /** What the gate replaced: msw patches this one, and the gate falls back to it. */
  below: (...args: any[]) => unknown
  gate: (...args: any[]) => unknown
  /** What rubricate's server put in its place when it started. */
  patched?: unknown
}

/** The process's state, created by the first module copy that asks. @internal */
export function runtimeState(): RuntimeState {
  const holder = globalThis as unknown as Record<symbol, RuntimeState | undefined>
  let state = holder[STATE_KEY]
  if (!state) {
    state = createState()
    holder[STATE_KEY] = state
  }
  return state
}

/** A fresh file part: nothing subscribed, nothing undecided. @internal */
export function newFilePart(): FilePart {
  return { subscriptions: [], undecidedOutside: [], claimedMisses: new Set() }
}

function createState(): RuntimeState {
  return {
    process: {
      installed: {
        networkGuard: false,
        networkHandles: false,
        fetchFallback: false,
        serverFollower: false,
      },
      extendedExpects: new WeakSet(),
      mswServer: { server: undefined, busy: false, mswAbsentTold: false },
      deferredServer: { pending: undefined, gates: [] },
      interceptorFallback: { listener: undefined, seen: new WeakSet() },
      liveLimits: { active: 0, queue: [], calls: 0, cost: 0 },
      secrets: undefined,
      listeners: { undecided: new Set(), records: new Set() },
      told: { undecided: new WeakSet(), oldEntries: new Set(), replayedErrors: new Set() },
      stepInternals: new WeakMap(),
      callContext: { storage: undefined, running: new Set() },
    },
    run: { updateSnapshots: false },
    file: newFilePart(),
    test: {
      undecided: new Map(),
      expectedUndecided: new Map(),
      modelCalls: new WeakMap(),
      refusalsTold: new WeakMap(),
    },
  }
}
