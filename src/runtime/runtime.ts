import { createIdAliases, type IdAliases } from '../cassettes/exchange/id-aliases'
import { type SecretRegistry, secretRegistry } from '../cassettes/redaction/redaction'
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
import { getState, stateSlot } from './state'

/**
 * What one worker (one process) holds for everything rubricate does in it (ARCHITECTURE.md §12):
 * the configuration layers and the configuration resolved from them, the cassette stores, and
 * the secret registry. Nothing here is cached against a clock or a memo: the configuration is
 * resolved from the layers, the run's facts and the environment each time it is read, and the
 * secrets are read from the environment each time a request is prepared and before anything is
 * printed or written. The setup file creates it; code takes it from its caller (an exchange's
 * input, the handlers the setup file starts) or, at an entry point outside a test (the CLI, a
 * script's `createCassetteFetch`), from {@link currentRuntime}.
 * @internal
 */
export interface Runtime {
  /** The configuration for one call, resolved now: call site > env > configure > plugin > defaults. */
  config(callSite?: CallSiteConfig, env?: NodeJS.ProcessEnv): ResolvedConfig
  /** Merge `config` over what `configureRubricate` set before (validated first). */
  configure(config: RubricateConfig): void
  /** Forget what `configureRubricate` set. */
  reset(): void
  /** Set the plugin's options (the setup file, once per worker). */
  setPlugin(config: RubricateConfig): void
  /**
   * The layers as they are now, read at every {@link Runtime.config}: `rubricate calibrate` and
   * tests save and restore a layer by assigning it.
   */
  readonly layers: ConfigLayers
  /** The store of each cassette folder used so far: one per folder, its read cache and write queue shared. */
  readonly stores: Map<string, CassetteStore>
  /** The worker's known secrets, read afresh on every `refresh()`. */
  readonly secrets: SecretRegistry
  /** Ids a live server issued in place of recorded ones, learnt while re-recording (§7.10). */
  readonly ids: IdAliases
}

/**
 * A runtime of its own. The secret registry is the process's one (the output gate below every
 * module, `redactOutput`, reaches it without a runtime), so that a secret a request carried is
 * redacted from whatever is printed later, whichever runtime prepared the request.
 * @internal
 */
export function createRuntime(): Runtime {
  const layers: ConfigLayers = { configured: {}, plugin: {} }
  return {
    layers,
    stores: new Map(),
    secrets: secretRegistry(),
    ids: createIdAliases(),
    config: (callSite, env) => resolveConfig(layers, getState().run, callSite, env),
    configure(config) {
      validateConfig(config, 'configureRubricate()')
      layers.configured = mergeConfig(layers.configured, config)
    },
    reset() {
      layers.configured = {}
    },
    setPlugin(config) {
      layers.plugin = config
    },
  }
}

/**
 * This process's runtime: the one the setup file created in a Vitest worker, else created now
 * (the CLI, the reporter's process, a script). Kept in the process-wide state, so that two copies
 * of the module (a bundled and an installed one) share it.
 * @internal
 */
export function currentRuntime(): Runtime {
  return stateSlot('runtime', createRuntime)
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
