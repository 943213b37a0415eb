import { isAbsolute, resolve } from 'node:path'
import { UsageError } from '../errors'
import { messages } from '../messages'
import type { JudgeInput } from '../records/records'
import { type CiDetection, detectCi } from './detect-ci'
import { parseDuration } from './duration'
import { hostEntryProblem } from './host-entry'
import { rejectUnknownKeys } from './known-keys'

/**
 * The configuration layers a user sets: `configureRubricate` (a setup file) and the plugin's
 * options (sent to each worker by the setup file). The worker's runtime holds them
 * (`src/runtime/runtime.ts`).
 * @internal
 */
export interface ConfigLayers {
  configured: RubricateConfig
  plugin: RubricateConfig
}

/** Facts of the run that the defaults depend on (the process-wide `run` state). @internal */
export interface RunFacts {
  updateSnapshots: boolean
  root?: string | undefined
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
   * In replay mode, refuse every connection outside loopback that no cassette served and that
   * `allowHosts` does not name, and fail the test that opened it, naming the host and the fix: no
   * test can go live by accident. `false` opts out: only connections to model providers' and
   * tracing services' hosts are refused then. Default `true`.
   */
  blockNetwork?: boolean | undefined
  /**
   * Hosts that tests may reach in replay mode although they are not loopback: a CI service
   * container (`'postgres'`), a staging API. Host names only, no scheme, port or path; an entry
   * matches the host and its subdomains, `*` stands for part of a label (`'*.staging.example.com'`).
   * A model provider's host is never allowed (its calls replay from cassettes). Default `[]`.
   */
  allowHosts?: string[] | undefined
  /**
   * Tracing and telemetry exports (LangSmith, the Agents SDK's trace ingest, OpenTelemetry OTLP
   * `/v1/traces`, `/v1/metrics`, `/v1/logs`) outside replay mode: `'pass'` lets them go out as
   * they are, `'refuse'` refuses them. They are never recorded as model calls, and in replay mode
   * always refused (unless `allowHosts` names their host). Default `'pass'`.
   */
  telemetry?: 'pass' | 'refuse' | undefined
  /**
   * In replay mode, answer a test that makes an identical request more often than it was
   * recorded with the last reply recorded for it. Default `false`: the extra request is a miss,
   * as a real server may answer identical requests differently in turn (a poll, a retry).
   */
  repeatReplies?: boolean | undefined
  /**
   * Key a `match` pattern's calls by their path alone, so that one recording answers the same
   * path on any host (a proxy, a staging copy of the service). Default `false`: the key holds the
   * host name, and a request to a second host is never served the first host's reply.
   */
  matchAnyHost?: boolean | undefined
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
  /**
   * Which assertions become test annotations (Vitest's `annotate()`): `'all'` (the default), or
   * `'failures'`, only those that fail or error. Every verdict stays in `task.meta` and in
   * rubricate's reports either way; an annotation costs a round trip to the main process.
   */
  annotations?: 'all' | 'failures' | undefined
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
    /** As written (for messages), and in milliseconds, parsed once here. */
    maxAge: { value: string | number; ms: number } | undefined
    server: 'internal' | 'external'
    replayTimings: boolean
    blockNetwork: boolean
    allowHosts: string[]
    telemetry: 'pass' | 'refuse'
    repeatReplies: boolean
    matchAnyHost: boolean
  }
  judgeConcurrency: number
  maxLiveCalls: number | undefined
  maxCost: number | undefined
  prices: Record<string, ModelPrice>
  annotations: 'all' | 'failures'
}

/**
 * Resolve the configuration for one call from `layers`, the run's facts and `env`, as they are
 * now: call site > environment > `configureRubricate` > plugin options > defaults
 * (ARCHITECTURE.md §4.3). Nothing is kept between calls; the runtime calls it each time the
 * configuration is read.
 * @internal
 */
export function resolveConfig(
  layers: ConfigLayers,
  run: RunFacts,
  callSite: CallSiteConfig = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const { configured, plugin } = layers
  const ordered: [ConfigSource, RubricateConfig][] = [
    ['call', { judge: callSite.judge, cassettes: { mode: callSite.cassettes } }],
    ['env', envConfig(env)],
    ['configure', configured],
    ['plugin', plugin],
  ]
  const pick = <T>(
    get: (c: RubricateConfig) => T | undefined,
  ): { value: T; source: ConfigSource } | undefined => {
    for (const [source, layer] of ordered) {
      const value = get(layer)
      if (value !== undefined) return { value, source }
    }
    return undefined
  }
  const mode = pick((c) => c.cassettes?.mode)
  const ci = detectCi(env)
  const root = run.root ?? process.cwd()
  const dir = pick((c) => c.cassettes?.dir)?.value ?? '__cassettes__'
  return {
    judge: pick((c) => c.judge),
    cassettes: {
      mode: mode?.value ?? defaultMode(ci, run.updateSnapshots),
      modeSource: mode?.source ?? 'default',
      ci,
      dir: isAbsolute(dir) ? dir : resolve(root, dir),
      match: pick((c) => c.cassettes?.match)?.value ?? [],
      providerHosts: pick((c) => c.cassettes?.providerHosts)?.value ?? [],
      redact: pick((c) => c.cassettes?.redact)?.value,
      normalize: pick((c) => c.cassettes?.normalize)?.value,
      maxAge: durationOf(pick((c) => c.cassettes?.maxAge)?.value),
      server: pick((c) => c.cassettes?.server)?.value ?? 'internal',
      replayTimings: pick((c) => c.cassettes?.replayTimings)?.value ?? false,
      blockNetwork: pick((c) => c.cassettes?.blockNetwork)?.value ?? true,
      allowHosts: pick((c) => c.cassettes?.allowHosts)?.value ?? [],
      telemetry: pick((c) => c.cassettes?.telemetry)?.value ?? 'pass',
      repeatReplies: pick((c) => c.cassettes?.repeatReplies)?.value ?? false,
      matchAnyHost: pick((c) => c.cassettes?.matchAnyHost)?.value ?? false,
    },
    judgeConcurrency: pick((c) => c.judgeConcurrency)?.value ?? 8,
    maxLiveCalls: pick((c) => c.maxLiveCalls)?.value,
    maxCost: pick((c) => c.maxCost)?.value,
    prices: Object.assign({}, plugin.prices, configured.prices),
    annotations: pick((c) => c.annotations)?.value ?? 'all',
  }
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

// `cassettes.maxAge` with its milliseconds: each replayed entry is compared with the number.
function durationOf(
  value: string | number | undefined,
): { value: string | number; ms: number } | undefined {
  return value === undefined ? undefined : { value, ms: parseDuration(value) }
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

/** `next` over `base`, `cassettes` merged key by key. @internal */
export function mergeConfig(base: RubricateConfig, next: RubricateConfig): RubricateConfig {
  return { ...base, ...next, cassettes: { ...base.cassettes, ...next.cassettes } }
}

const KNOWN_KEYS = new Set([
  'judge',
  'cassettes',
  'judgeConcurrency',
  'maxLiveCalls',
  'maxCost',
  'prices',
  'annotations',
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
  'allowHosts',
  'telemetry',
  'repeatReplies',
  'matchAnyHost',
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
  for (const list of ['providerHosts', 'allowHosts'] as const) {
    const entries = config.cassettes?.[list]
    if (entries !== undefined && !Array.isArray(entries)) {
      throw new UsageError(messages.notHostList(`${where} cassettes.${list}`, entries))
    }
    for (const [index, host] of (entries ?? []).entries()) {
      const problem = hostEntryProblem(host)
      if (problem) {
        throw new UsageError(
          messages.badHostEntry(`${where} cassettes.${list}[${index}]`, host, problem),
        )
      }
    }
  }
  const annotations = config.annotations
  if (annotations !== undefined && annotations !== 'all' && annotations !== 'failures') {
    throw new UsageError(
      messages.invalidChoice(`${where} annotations`, annotations, ['all', 'failures']),
    )
  }
  const telemetry = config.cassettes?.telemetry
  if (telemetry !== undefined && telemetry !== 'pass' && telemetry !== 'refuse') {
    throw new UsageError(
      messages.invalidChoice(`${where} cassettes.telemetry`, telemetry, ['pass', 'refuse']),
    )
  }
  for (const key of ['blockNetwork', 'repeatReplies', 'matchAnyHost'] as const) {
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
