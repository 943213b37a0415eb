import { isAbsolute, resolve } from 'node:path'
import { UsageError } from '../errors'
import { messages } from '../messages'
import type { OpenAICompatibleJudge } from '../records/records'
import { type CassetteMode, type RubricateConfig, validateConfig } from './resolve-config'

/** The key under which the plugin provides its options to every worker. @internal */
export const PROVIDED_OPTIONS_KEY = 'rubricate:options'

/** A `match` pattern that crossed processes: a string, or a RegExp's source and flags. @internal */
export type SerializedPattern = string | { source: string; flags: string }

/**
 * What the plugin hands to workers through Vitest's `provide` (ARCHITECTURE.md §4.3): plain data only.
 * @internal
 */
export interface ProvidedOptions {
  v: 1
  judge?: string | OpenAICompatibleJudge | undefined
  cassettes: {
    mode?: CassetteMode | undefined
    /** Absolute: resolved against the project root. */
    dir: string
    match?: SerializedPattern[] | undefined
    providerHosts?: string[] | undefined
    maxAge?: string | number | undefined
    server?: 'internal' | 'external' | undefined
    replayTimings?: boolean | undefined
    blockNetwork?: boolean | undefined
    allowHosts?: string[] | undefined
    telemetry?: 'pass' | 'refuse' | undefined
    repeatReplies?: boolean | undefined
    matchAnyHost?: boolean | undefined
  }
  judgeConcurrency?: number | undefined
  maxLiveCalls?: number | undefined
  maxCost?: number | undefined
  prices?: RubricateConfig['prices']
  annotations?: RubricateConfig['annotations']
  /** Shared by every worker of one run. */
  runId: string
  /** The project root. */
  root: string
  /** The Vitest config file, absolute, when there is one. */
  configFile?: string | undefined
  /** Vitest runs with `-u` / `--update`. */
  updateSnapshots: boolean
}

/**
 * Check the plugin's options and turn them into plain data for the workers. Options that cannot
 * cross processes (a `JudgeModel`, a `redact` function) are usage errors that point to
 * `configureRubricate`.
 * @internal
 */
export function serializePluginOptions(
  options: RubricateConfig,
  context: {
    root: string
    runId: string
    updateSnapshots: boolean
    configFile?: string | undefined
  },
): ProvidedOptions {
  validatePluginOptions(options)
  const cassettes = options.cassettes ?? {}
  const dir = cassettes.dir ?? '__cassettes__'
  return dropUndefined({
    v: 1 as const,
    judge: options.judge as ProvidedOptions['judge'],
    cassettes: dropUndefined({
      mode: cassettes.mode,
      dir: isAbsolute(dir) ? dir : resolve(context.root, dir),
      match: cassettes.match?.map((pattern) =>
        typeof pattern === 'string' ? pattern : { source: pattern.source, flags: pattern.flags },
      ),
      providerHosts: cassettes.providerHosts,
      maxAge: cassettes.maxAge,
      server: cassettes.server,
      replayTimings: cassettes.replayTimings,
      blockNetwork: cassettes.blockNetwork,
      allowHosts: cassettes.allowHosts,
      telemetry: cassettes.telemetry,
      repeatReplies: cassettes.repeatReplies,
      matchAnyHost: cassettes.matchAnyHost,
    }),
    judgeConcurrency: options.judgeConcurrency,
    maxLiveCalls: options.maxLiveCalls,
    maxCost: options.maxCost,
    prices: options.prices,
    annotations: options.annotations,
    runId: context.runId,
    root: context.root,
    configFile: context.configFile,
    updateSnapshots: context.updateSnapshots,
  })
}

/** The plugin's options as a worker's configuration layer. @internal */
export function deserializePluginOptions(provided: ProvidedOptions): RubricateConfig {
  const { cassettes } = provided
  return dropUndefined({
    judge: provided.judge,
    cassettes: dropUndefined({
      mode: cassettes.mode,
      dir: cassettes.dir,
      match: cassettes.match?.map((pattern) =>
        typeof pattern === 'string' ? pattern : new RegExp(pattern.source, pattern.flags),
      ),
      providerHosts: cassettes.providerHosts,
      maxAge: cassettes.maxAge,
      server: cassettes.server,
      replayTimings: cassettes.replayTimings,
      blockNetwork: cassettes.blockNetwork,
      allowHosts: cassettes.allowHosts,
      telemetry: cassettes.telemetry,
      repeatReplies: cassettes.repeatReplies,
      matchAnyHost: cassettes.matchAnyHost,
    }),
    judgeConcurrency: provided.judgeConcurrency,
    maxLiveCalls: provided.maxLiveCalls,
    maxCost: provided.maxCost,
    prices: provided.prices,
    annotations: provided.annotations,
  })
}

/** Validate the plugin's options where the user wrote them (in vitest.config). @internal */
export function validatePluginOptions(options: RubricateConfig): void {
  validateConfig(options, 'rubricate() plugin')
  const judge = options.judge as unknown
  if (typeof judge === 'object' && judge !== null && 'complete' in judge) {
    throw new UsageError(messages.pluginOptionNotSerializable('judge', 'a JudgeModel'))
  }
  if (options.cassettes?.redact !== undefined) {
    throw new UsageError(messages.pluginOptionNotSerializable('cassettes.redact', 'a function'))
  }
  if (options.cassettes?.normalize !== undefined) {
    throw new UsageError(messages.pluginOptionNotSerializable('cassettes.normalize', 'a function'))
  }
  try {
    structuredClone(options.judge)
  } catch {
    throw new UsageError(messages.pluginOptionNotSerializable('judge', 'not plain data'))
  }
}

function dropUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item
  return out as T
}
