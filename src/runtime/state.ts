const STATE_KEY: unique symbol = Symbol.for('rubricate') as never

/**
 * Process-wide state, kept on `globalThis` so that two copies of the module (two versions, or a
 * bundled and an installed copy) see the same configuration and listeners.
 * @internal
 */
export interface RubricateState {
  /** Facts about the current run, set by the setup file. */
  run: {
    /** Vitest was started with `-u` / `--update`. */
    updateSnapshots: boolean
    /** Run id shared by all workers of one Vitest run. */
    runId?: string | undefined
    /** Project root; relative folders resolve against it. Default `process.cwd()`. */
    root?: string | undefined
    /** The Vitest config file of the run (absolute), kept in the record commands of messages. */
    configFile?: string | undefined
  }
  /** Slots that other modules own (cassette session, record listeners...). */
  slots: Map<string, unknown>
}

/** @internal */
export function getState(): RubricateState {
  const holder = globalThis as unknown as Record<symbol, RubricateState | undefined>
  let state = holder[STATE_KEY]
  if (!state) {
    state = { run: { updateSnapshots: false }, slots: new Map() }
    holder[STATE_KEY] = state
  }
  return state
}

/**
 * A named slot of the shared state, created on first use. Lets a module keep its own singleton
 * (for example the cassette store) without the state file knowing about it.
 * @internal
 */
export function stateSlot<T>(name: string, create: () => T): T {
  const { slots } = getState()
  if (!slots.has(name)) slots.set(name, create())
  return slots.get(name) as T
}
