import { isAbsolute, resolve } from 'node:path'
import { NoJudgeError, UsageError } from '../errors'
import { messages } from '../messages'
import type { JudgeInput } from '../records/records'
import { getState, stateSlot } from '../runtime/state'
import { type CiDetection, detectCi } from './detect-ci'
import { parseDuration } from './duration'
import { rejectUnknownKeys } from './known-keys'

/**
 * The configuration layers a user sets: `configureRubricate` (a setup file) and the plugin's
 * options (sent to each worker by the setup file). Kept in a slot of the process-wide state, so
 * two copies of the module (the ESM and CJS builds) see the same layers.
 * @internal
 */
export interface ConfigLayers {
  configured: RubricateConfig
  plugin: RubricateConfig
}

/** The configuration layers of this process. @internal */
export function configLayers(): ConfigLayers {
  return stateSlot<ConfigLayers>('config-layers', () => ({ configured: {}, plugin: {} }))
}

/** How cassettes are used. ARCHITECTURE.md §7.4. */
export type CassetteMode = 'replay' | 'auto' | 'record' | 'off'

/** The four cassette modes, in the order messages list them. */
export const CASSETTE_MODES: readonly CassetteMode[] = ['replay', 'auto', 'record', 'off']

/** Price of a model in US dollars per million tokens. */
export interface ModelPrice {
  input: number
  output: number
}

/** Cassette options, set in the plugin or with `configureRubricate`. */
export interface CassetteOptions {
  /** Default: `record` under `vitest -u` (also on CI), else `replay` on CI, else `auto`. */
  mode?: CassetteMode | undefined
  /** Folder of cassette files, relative to the project root. Default `'__cassettes__'`. */
  dir?: string | undefined
  /**
   * More URL path patterns of agent model calls to record, on top of the built-in endpoints: a
   * string ends the path after a `/` or a `:` (`'/v1/rerank'`, `':predict'`), a RegExp matches
   * anywhere in it. Default `[]`.
   */
  match?: (string | RegExp)[] | undefined
  /**
   * More hosts of model providers, on top of the built-in list (OpenAI, Azure OpenAI, Anthropic,
   * Google AI and Vertex, Mistral, Cohere, Groq, Together, Fireworks, OpenRouter, DeepSeek, xAI,
   * Bedrock runtime): every request to one is a model call, recorded and replayed, and in replay
   * mode never sent. An entry matches the host and its subdomains; `*` stands for part of a
   * label (`'llm.*.example.com'`). Default `[]`.
   */
  providerHosts?: string[] | undefined
  /** Last change to an entry before it is written (after the built-in redaction). */
  redact?: ((entry: any) => any) | undefined
  /**
   * Rewrite each string of a request body before the key is computed, after secret redaction:
   * make volatile parts (today's date, a generated id) constant so that they do not turn every
   * run into a miss, e.g. `(text) => text.replace(/\d{4}-\d\d-\d\d/g, '<date>')`. The reply is
   * replayed as recorded; the entry stores the normalised request. Set it with
   * `configureRubricate` in a setup file (a function cannot cross to the workers).
   */
  normalize?: ((text: string) => string) | undefined
  /** Warn about cassettes older than this: milliseconds, or `'30d'`, `'12h'`... */
  maxAge?: string | number | undefined
  /** `'external'` when you run your own msw server and call `attachRubricate(server)`. Default `'internal'`. */
  server?: 'internal' | 'external' | undefined
  /** Replay recorded streams with the pauses they were recorded with. Default `false` (as fast as read). */
  replayTimings?: boolean | undefined
  /**
   * In replay mode, refuse every connection outside loopback that no cassette served, and fail the
   * test file naming the host and the fix: no test can go live by accident. Default `false`;
   * recommended on CI.
   */
  blockNetwork?: boolean | undefined
  /**
   * In replay mode, answer a test that makes an identical request more often than it was
   * recorded with the last reply recorded for it. Default `false`: the extra request is a miss,
   * as a real server may answer identical requests differently in turn (a poll, a retry).
   */
  repeatReplies?: boolean | undefined
}

/** Everything that can be configured, at any level of ARCHITECTURE.md §4.3. */
export interface RubricateConfig {
  /** The judge: `'openai/<model>'`, an OpenAI-compatible endpoint, or a `JudgeModel`. */
  judge?: JudgeInput | undefined
  cassettes?: CassetteOptions | undefined
  /** Parallel live judge calls per worker. Default `8`. */
  judgeConcurrency?: number | undefined
  /** Stop a run after this many live judge calls. Default: no limit. */
  maxLiveCalls?: number | undefined
  /** Stop a run once live judge calls are estimated to cost more than this, in US dollars. */
  maxCost?: number | undefined
  /** Prices used for cost estimates, keyed by model name. Merged over the built-in table. */
  prices?: Record<string, ModelPrice> | undefined
}

/** Options that a single matcher or scorer call may set; they win over every other level. */
export interface CallSiteConfig {
  judge?: JudgeInput | undefined
  cassettes?: CassetteMode | undefined
}

/** Where a resolved value came from, strongest first. */
export type ConfigSource = 'call' | 'env' | 'configure' | 'plugin' | 'default'

/** The configuration in effect for one call. */
export interface ResolvedConfig {
  judge: { value: JudgeInput; source: ConfigSource } | undefined
  cassettes: {
    mode: CassetteMode
    modeSource: ConfigSource
    /** CI as detected in the environment the configuration was resolved from. */
    ci: CiDetection
    dir: string
    match: (string | RegExp)[]
    providerHosts: string[]
    redact: ((entry: any) => any) | undefined
    normalize: ((text: string) => string) | undefined
    maxAge: string | number | undefined
    server: 'internal' | 'external'
    replayTimings: boolean
    blockNetwork: boolean
    repeatReplies: boolean
  }
  judgeConcurrency: number
  maxLiveCalls: number | undefined
  maxCost: number | undefined
  prices: Record<string, ModelPrice>
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
  validateConfig(config, 'configureRubricate()')
  const layers = configLayers()
  layers.configured = mergeConfig(layers.configured, config)
}

/** Forget everything set with `configureRubricate` (for tests of your own setup). */
export function resetRubricateConfig(): void {
  configLayers().configured = {}
}

/** @internal Sets the plugin's options in this worker (called by the setup file). */
export function setPluginConfig(config: RubricateConfig): void {
  configLayers().plugin = config
}

/**
 * Resolve the configuration for one call: call site > environment > `configureRubricate` >
 * plugin options > defaults (ARCHITECTURE.md §4.3).
 * @internal
 */
export function resolveConfig(
  callSite: CallSiteConfig = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const state = getState()
  const layers = configLayers()
  // A replayed judge call resolves the configuration a few times: the last few resolutions are
  // kept, each with everything it was resolved from, and reused while all of it is the same.
  // Not with another environment, nor with prices (a table the user may change in place).
  if (env !== process.env || layers.configured.prices || layers.plugin.prices) {
    return resolveNow(callSite, env)
  }
  const inputs = [
    callSite.judge,
    callSite.cassettes,
    env.RUBRICATE_JUDGE,
    env.RUBRICATE_CASSETTES,
    // A provider's variable (JENKINS_URL...) is read only when no resolution is reused: like
    // Vitest, which reads them once, rubricate takes them as fixed for the run.
    env.CI,
    layers.configured,
    layers.plugin,
    state.run.root,
    state.run.updateSnapshots,
    state.run.root === undefined ? process.cwd() : undefined,
  ]
  for (const memo of resolved) if (sameInputs(memo.inputs, inputs)) return memo.config
  // Frozen, as it is shared: a caller that changed it would change it for the next.
  const config = resolveNow(callSite, env)
  Object.freeze(config.cassettes)
  Object.freeze(config.prices)
  Object.freeze(config)
  if (resolved.length >= 4) resolved.pop()
  resolved.unshift({ inputs, config })
  return config
}

const resolved: { inputs: unknown[]; config: ResolvedConfig }[] = []

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function resolveNow(callSite: CallSiteConfig, env: NodeJS.ProcessEnv): ResolvedConfig {
  const state = getState()
  const { configured, plugin } = configLayers()
  const layers: [ConfigSource, RubricateConfig][] = [
    ['call', { judge: callSite.judge, cassettes: { mode: callSite.cassettes } }],
    ['env', envConfig(env)],
    ['configure', configured],
    ['plugin', plugin],
  ]
  const pick = <T>(
    get: (c: RubricateConfig) => T | undefined,
  ): { value: T; source: ConfigSource } | undefined => {
    for (const [source, layer] of layers) {
      const value = get(layer)
      if (value !== undefined) return { value, source }
    }
    return undefined
  }
  const mode = pick((c) => c.cassettes?.mode)
  const ci = detectCi(env)
  const root = state.run.root ?? process.cwd()
  const dir = pick((c) => c.cassettes?.dir)?.value ?? '__cassettes__'
  return {
    judge: pick((c) => c.judge),
    cassettes: {
      mode: mode?.value ?? defaultMode(ci, state.run.updateSnapshots),
      modeSource: mode?.source ?? 'default',
      ci,
      dir: isAbsolute(dir) ? dir : resolve(root, dir),
      match: pick((c) => c.cassettes?.match)?.value ?? [],
      providerHosts: pick((c) => c.cassettes?.providerHosts)?.value ?? [],
      redact: pick((c) => c.cassettes?.redact)?.value,
      normalize: pick((c) => c.cassettes?.normalize)?.value,
      maxAge: pick((c) => c.cassettes?.maxAge)?.value,
      server: pick((c) => c.cassettes?.server)?.value ?? 'internal',
      replayTimings: pick((c) => c.cassettes?.replayTimings)?.value ?? false,
      blockNetwork: pick((c) => c.cassettes?.blockNetwork)?.value ?? false,
      repeatReplies: pick((c) => c.cassettes?.repeatReplies)?.value ?? false,
    },
    judgeConcurrency: pick((c) => c.judgeConcurrency)?.value ?? 8,
    maxLiveCalls: pick((c) => c.maxLiveCalls)?.value,
    maxCost: pick((c) => c.maxCost)?.value,
    prices: Object.assign({}, plugin.prices, configured.prices),
  }
}

/**
 * The judge for one call, or `RUBRICATE_NO_JUDGE` naming every place one can be set.
 * @internal
 */
export function resolveJudge(
  callSite?: JudgeInput,
  env: NodeJS.ProcessEnv = process.env,
): JudgeInput {
  const judge = resolveConfig({ judge: callSite }, env).judge
  if (!judge) throw new NoJudgeError(messages.noJudge())
  return judge.value
}

/**
 * The cassette mode when nobody chose one: `record` under an explicit `vitest -u`, also on CI
 * (Vitest's rule for snapshots); else `replay` on CI, detected as Vitest detects it (`CI`, or a
 * provider's variable such as `JENKINS_URL`; `CI=false`/`0` opts out); else `auto`.
 * @internal
 */
export function defaultCassetteMode(
  env: NodeJS.ProcessEnv,
  updateSnapshots: boolean,
): CassetteMode {
  return defaultMode(detectCi(env), updateSnapshots)
}

function defaultMode(ci: CiDetection, updateSnapshots: boolean): CassetteMode {
  if (updateSnapshots) return 'record'
  if (ci.ci) return 'replay'
  return 'auto'
}

/** Parse a cassette mode, or throw a usage error that lists the four. @internal */
export function parseCassetteMode(value: unknown, where: string): CassetteMode {
  if (typeof value === 'string' && (CASSETTE_MODES as readonly string[]).includes(value)) {
    return value as CassetteMode
  }
  throw new UsageError(messages.invalidCassetteMode(where, value))
}

function envConfig(env: NodeJS.ProcessEnv): RubricateConfig {
  const config: RubricateConfig = {}
  const judge = env.RUBRICATE_JUDGE?.trim()
  if (judge) {
    // Checked here, like RUBRICATE_CASSETTES, so that the message names the variable.
    if (!/^openai\/\S/.test(judge)) throw new UsageError(messages.invalidEnvJudge(judge))
    config.judge = judge
  }
  const mode = env.RUBRICATE_CASSETTES?.trim()
  if (mode) config.cassettes = { mode: parseCassetteMode(mode, 'RUBRICATE_CASSETTES') }
  return config
}

function mergeConfig(base: RubricateConfig, next: RubricateConfig): RubricateConfig {
  return { ...base, ...next, cassettes: { ...base.cassettes, ...next.cassettes } }
}

const KNOWN_KEYS = new Set([
  'judge',
  'cassettes',
  'judgeConcurrency',
  'maxLiveCalls',
  'maxCost',
  'prices',
])
const KNOWN_CASSETTE_KEYS = new Set([
  'mode',
  'dir',
  'match',
  'providerHosts',
  'redact',
  'normalize',
  'maxAge',
  'server',
  'replayTimings',
  'blockNetwork',
  'repeatReplies',
])

/** Reject unknown keys and bad values up front, so a typo is not silently ignored. @internal */
export function validateConfig(config: RubricateConfig, where: string): void {
  if (typeof config !== 'object' || config === null) {
    throw new UsageError(messages.configNotObject(where, config))
  }
  rejectUnknownKeys(where, config, [...KNOWN_KEYS])
  rejectUnknownKeys(`${where} cassettes`, config.cassettes ?? {}, [...KNOWN_CASSETTE_KEYS])
  if (config.cassettes?.maxAge !== undefined) parseDuration(config.cassettes.maxAge)
  if (config.cassettes?.mode !== undefined)
    parseCassetteMode(config.cassettes.mode, `${where} cassettes.mode`)
  const server = config.cassettes?.server
  if (server !== undefined && server !== 'internal' && server !== 'external') {
    throw new UsageError(
      messages.invalidChoice(`${where} cassettes.server`, server, ['internal', 'external']),
    )
  }
  const normalize = config.cassettes?.normalize
  if (normalize !== undefined && typeof normalize !== 'function') {
    throw new UsageError(messages.notFunction(`${where} cassettes.normalize`, normalize))
  }
  const hosts = config.cassettes?.providerHosts
  if (
    hosts !== undefined &&
    !(Array.isArray(hosts) && hosts.every((host) => typeof host === 'string' && host.trim()))
  ) {
    throw new UsageError(messages.notHostList(`${where} cassettes.providerHosts`, hosts))
  }
  for (const key of ['blockNetwork', 'repeatReplies'] as const) {
    const value = config.cassettes?.[key]
    if (value !== undefined && typeof value !== 'boolean') {
      throw new UsageError(messages.notBoolean(`${where} cassettes.${key}`, value))
    }
  }
  for (const key of ['judgeConcurrency', 'maxLiveCalls'] as const) {
    const value = config[key]
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new UsageError(messages.notPositiveInteger(`${where} ${key}`, value))
    }
  }
  if (
    config.maxCost !== undefined &&
    !(typeof config.maxCost === 'number' && config.maxCost >= 0)
  ) {
    throw new UsageError(messages.notPositiveNumber(`${where} maxCost`, config.maxCost))
  }
}
