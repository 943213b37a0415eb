import type { CassetteMode } from '../config/resolve-config'
import type { TestIdentity } from '../records/records'

/**
 * Marks what an edge (a matcher) chooses and knows for every judge call of a scorer run it starts: put in
 * the run's input under this symbol, because `scorer.run(input)` is Mastra's shape and takes no
 * other argument; the pipeline reads it once and passes it down to each step's judge calls.
 * @internal
 */
export const RUN_CHOICES: unique symbol = Symbol.for('rubricate.runChoices') as never

/** See {@link RUN_CHOICES}. @internal */
export interface RunChoices {
  /** The cassette mode chosen at the call site (`{ cassettes: 'off' }`). */
  cassetteMode?: CassetteMode | undefined
  /** The test the edge asserts in (the matcher's task): named in cassette misses, stored as `recordedBy`. */
  test?: TestIdentity | undefined
  /** The test's abort signal (fires on timeout), which every judge call of the run listens to. */
  signal?: AbortSignal | undefined
}

/** `run` with `choices` for its judge calls (a copy; `run` itself is left as it was). @internal */
export function withRunChoices<T extends object>(run: T, choices: RunChoices): T {
  const { cassetteMode, test, signal } = choices
  const none = cassetteMode === undefined && test === undefined && signal === undefined
  return none ? run : { ...run, [RUN_CHOICES]: choices }
}

/** The choices a scorer run's input carries (none: the configuration's). @internal */
export function runChoicesOf(run: unknown): RunChoices {
  if (typeof run !== 'object' || run === null) return {}
  return (run as { [RUN_CHOICES]?: RunChoices })[RUN_CHOICES] ?? {}
}
