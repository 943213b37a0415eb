import { createIdAliases, type IdAliases } from '../cassettes/exchange/id-aliases'
import { type SecretRegistry, secretRegistry } from '../cassettes/redaction/redaction'
import { CassetteSession } from '../cassettes/run/cassette-session'
import type { CassetteStore } from '../cassettes/store/cassette-store'
import {
  type CallSiteConfig,
  type ConfigLayers,
  mergeConfig,
  type ResolvedConfig,
  type RubricateConfig,
  resolveConfig,
  validateConfig,
} from '../config/resolve-config'
import { NoJudgeError } from '../errors'
import { messages } from '../messages'
import type { JudgeInput } from '../records/records'
import { newFilePart, type RuntimeState, runtimeState } from './state'

/**
 * What one worker (one process) holds for everything rubricate does in it (ARCHITECTURE.md §12):
 * the state parts of {@link RuntimeState} (process, run, file, test), and, for the process's
 * lifetime, the configuration layers and the configuration resolved from them, the cassette
 * stores, the cassette session, the secret registry and the id aliases. Nothing here is cached
 * against a clock or a memo: the configuration is resolved from the layers, the run's facts and
 * the environment each time it is read, and the secrets are read from the environment each time a
 * request is prepared and before anything is printed or written. Code takes it from its caller
 * (an exchange's input, the handlers the setup file starts) or, where a call enters (the setup
 * file, the CLI, a script's `createCassetteFetch`), from {@link currentRuntime}.
 * @internal
 */
export interface Runtime extends RuntimeState {
  /** The configuration for one call, resolved now: call site > env > configure > plugin > defaults. */
  config(callSite?: CallSiteConfig, env?: NodeJS.ProcessEnv): ResolvedConfig
  /** Merge `config` over what `configureRubricate` set before (validated first). */
  configure(config: RubricateConfig): void
  /** Forget what `configureRubricate` set. */
  reset(): void
  /** Set the plugin's options (the setup file, once per worker). */
  setPlugin(config: RubricateConfig): void
  /**
   * A test file starts (the setup file, before each file): the previous file's subscriptions
   * end, and the file part is emptied.
   */
  startFile(): void
  /**
   * The layers as they are now, read at every {@link Runtime.config}: `rubricate calibrate` and
   * tests save and restore a layer by assigning it.
   */
  readonly layers: ConfigLayers
  /** The store of each cassette folder used so far: one per folder, its read cache and write queue shared. */
  readonly stores: Map<string, CassetteStore>
  /** The worker's cassette session: usage, misses and errors of the file, open recordings (§7.7). */
  readonly session: CassetteSession
  /** The worker's known secrets, read afresh on every `refresh()`. */
  readonly secrets: SecretRegistry
  /** Ids a live server issued in place of recorded ones, learnt while re-recording (§7.10). */
  readonly ids: IdAliases
}

type RuntimeServices = Omit<Runtime, keyof RuntimeState>

/**
 * This process's runtime: the process's state ({@link runtimeState}) with its services added the
 * first time any copy of the module asks, so that every copy (the setup file's, the package's)
 * shares one configuration, one store per folder and one session.
 * @internal
 */
export function currentRuntime(): Runtime {
  const state = runtimeState() as RuntimeState & Partial<RuntimeServices>
  if (!state.config) Object.assign(state, services(state))
  return state as Runtime
}

function services(state: RuntimeState): RuntimeServices {
  const layers: ConfigLayers = { configured: {}, plugin: {} }
  const config: Runtime['config'] = (callSite, env) =>
    resolveConfig(layers, state.run, callSite, env)
  return {
    layers,
    stores: new Map(),
    session: new CassetteSession({ config: () => config() }),
    secrets: secretRegistry(),
    ids: createIdAliases(),
    config,
    configure(update) {
      validateConfig(update, 'configureRubricate()')
      layers.configured = mergeConfig(layers.configured, update)
    },
    reset() {
      layers.configured = {}
    },
    setPlugin(plugin) {
      layers.plugin = plugin
    },
    startFile() {
      for (const end of state.file.subscriptions) end()
      state.file = newFilePart()
    },
  }
}

/**
 * Configure rubricate for every test of a worker. Call it in a setup file; it wins over the
 * plugin's options, and loses to environment variables and to options given at the call site.
 * Options that cannot cross processes (a `JudgeModel`, a `redact` function) are set here.
 *
 * @example
 * configureRubricate({ judge: { model: 'llama3.1', baseURL: 'http://localhost:11434/v1' } })
 */
export function configureRubricate(config: RubricateConfig): void {
  currentRuntime().configure(config)
}

/** Forget everything set with `configureRubricate` (for tests of your own setup). */
export function resetRubricateConfig(): void {
  currentRuntime().reset()
}

/** @internal Sets the plugin's options in this worker (called by the setup file). */
export function setPluginConfig(config: RubricateConfig): void {
  currentRuntime().setPlugin(config)
}

/**
 * The judge for one call, or `RUBRICATE_NO_JUDGE` naming every place one can be set.
 * @internal
 */
export function resolveJudge(
  callSite?: JudgeInput,
  env: NodeJS.ProcessEnv = process.env,
  runtime: Runtime = currentRuntime(),
): JudgeInput {
  const judge = runtime.config({ judge: callSite }, env).judge
  if (!judge) throw new NoJudgeError(messages.noJudge())
  return judge.value
}
