/// <reference types="vitest/config" />
import { randomUUID } from 'node:crypto'
import { resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Vite } from 'vitest/node'
import { isMswInstalled } from '../src/cassettes/agents/msw-loader'
import { removeStaleRunFolders } from '../src/cassettes/run/run-folders'
import { detectCi } from '../src/config/detect-ci'
import {
  PROVIDED_OPTIONS_KEY,
  serializePluginOptions,
  validatePluginOptions,
} from '../src/config/plugin-options'
import {
  defaultCassetteMode,
  parseCassetteMode,
  type RubricateConfig,
} from '../src/config/resolve-config'
import { messages } from '../src/messages'
import { installReporter } from './install-reporter'
import { checkHistoryOption } from './run-history'

/** Options of the Vitest plugin: what `configureRubricate` takes, minus what cannot cross processes. */
export type RubricatePluginOptions = Omit<RubricateConfig, 'judge' | 'cassettes'> & {
  /** The judge: `'openai/<model>'` or an OpenAI-compatible endpoint. A `JudgeModel` goes in `configureRubricate`. */
  judge?: Exclude<RubricateConfig['judge'], { complete: unknown }> | undefined
  /** Cassette options; `redact` goes in `configureRubricate`. */
  cassettes?: Omit<NonNullable<RubricateConfig['cassettes']>, 'redact'> | undefined
  /**
   * The run history (ARCHITECTURE.md §9.3): `true` adds each run to `RUBRICATE_HISTORY`, else to
   * `.rubricate-history.sqlite` under the root; a path adds it there; `false` turns it off.
   * Default: `RUBRICATE_HISTORY` when set, else no history.
   */
  history?: boolean | string | undefined
}

const SETUP_FILE = fileURLToPath(new URL('./setup.js', import.meta.url))
// Vitest reads a string in `server.deps.inline` as a package name: the file is named by a pattern,
// over the path as Vite writes module ids (forward slashes, on Windows too).
const SETUP_FILE_PATTERN = new RegExp(
  `^${SETUP_FILE.replaceAll('\\', '/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
)
/** Test timeout in live modes, where a judge call may take seconds. */
const LIVE_TEST_TIMEOUT = 60_000
/** Vitest's own default test timeout (Node), which nobody changed when the timeout still has it. */
const VITEST_TEST_TIMEOUT = 5_000

/**
 * The rubricate Vitest plugin: puts `rubricate/setup` first in `setupFiles`, passes its options to
 * every worker, raises `testTimeout` to 60 s when judge calls may go live and no timeout is set,
 * keeps the cassette folder out of watch mode, and adds rubricate's reporter.
 *
 * @example
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import rubricate from 'rubricate/plugin'
 * export default defineConfig({ plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })] })
 */
export function rubricate(given: RubricatePluginOptions = {}): Vite.Plugin {
  // The history is the reporter's, in the main process; the rest reaches the workers.
  const { history, ...options } = given
  // Fail where the mistake is: in vitest.config, before any worker starts.
  checkHistoryOption(history)
  validatePluginOptions(options)
  // One id per Vitest run, shared by every project and worker.
  const runId = randomUUID()
  let started = false
  let timeoutUnset = false
  return {
    name: 'rubricate',
    // Read by the rubricate command, which loads the Vitest config to find the cassette folder.
    api: { rubricateOptions: given },
    config(userConfig) {
      // Recording writes a file per exchange: watch mode must not see them (ARCHITECTURE.md §7.2).
      const root = resolve(userConfig.test?.root ?? userConfig.root ?? process.cwd())
      const cassettes = resolve(root, options.cassettes?.dir ?? '__cassettes__')
      const ignored = (path: string): boolean =>
        path === cassettes || path.startsWith(`${cassettes}${sep}`)
      timeoutUnset = userConfig.test?.testTimeout === undefined
      const raiseTimeout = timeoutUnset && mayGoLive(options)
      // The setup file is run by Vite's module runner, not Node's import(): Vitest evaluates a
      // setup file again before each test file that shares a worker (`isolate: false`), but only
      // if it is inlined, and it inlines only the setup files listed before this plugin adds its
      // own. Loaded from node_modules by Node, it would run once per worker, and its hooks (the
      // undecided-call rule, the file's cassette usage) would hold for the worker's first file
      // alone (ARCHITECTURE.md §8.1). Its imports stay Node's, loaded once per worker.
      const inlineAll = userConfig.test?.server?.deps?.inline === true
      return {
        server: { watch: { ignored: [ignored] } },
        test: {
          ...(raiseTimeout ? { testTimeout: LIVE_TEST_TIMEOUT } : {}),
          ...(inlineAll ? {} : { server: { deps: { inline: [SETUP_FILE_PATTERN] } } }),
        },
      }
    },
    configureVitest({ project, vitest }) {
      // First, so that the user's own setup files (their msw server, configureRubricate) run
      // after rubricate's matchers and msw listeners are in place.
      // An explicit -u, as Vitest reads it for snapshots ('all' only with -u, also on CI).
      const updateSnapshots = vitest.config.snapshotOptions.updateSnapshot === 'all'
      if (!started) {
        started = true
        removeStaleRunFolders(project.config.root)
        // msw is optional: without it the workers intercept no agent call. Said once per run.
        if (!isMswInstalled()) vitest.logger.log(messages.mswAbsentNotice())
        // Said once, before the run: re-recording goes live, which a replaying CI never does.
        if (updateSnapshots && chosenMode(options) === undefined) {
          const ci = detectCi(process.env)
          vitest.logger.log(messages.cassettesReRecorded(ci.provider, ci.ci))
        }
      }
      // -u is known only here (the config hook does not see Vitest's command line): a run that
      // records because of it goes live, on CI too, and gets the live timeout, unless one was set
      // in the config or on the command line.
      if (
        updateSnapshots &&
        timeoutUnset &&
        chosenMode(options) === undefined &&
        project.config.testTimeout === VITEST_TEST_TIMEOUT
      ) {
        project.config.testTimeout = LIVE_TEST_TIMEOUT
      }
      const setupFiles = project.config.setupFiles
      if (!setupFiles.includes(SETUP_FILE)) setupFiles.unshift(SETUP_FILE)
      const provided = serializePluginOptions(options, {
        root: project.config.root,
        configFile: configFileOf(vitest),
        runId,
        updateSnapshots,
      })
      ;(project.provide as (key: string, value: unknown) => void)(PROVIDED_OPTIONS_KEY, provided)
      // Once per run, whatever the number of projects (ARCHITECTURE.md §9).
      installReporter(vitest, { prices: options.prices, history })
    },
  }
}

// Judge calls may go live unless the run replays: the environment, then the plugin's mode, then
// the default (replay on CI). `-u` means record, which is live too.
function mayGoLive(options: RubricatePluginOptions): boolean {
  const mode = chosenMode(options) ?? defaultCassetteMode(process.env, false)
  return mode !== 'replay'
}

// The mode set in the environment or in the plugin's options, which -u and CI do not change.
function chosenMode(options: RubricatePluginOptions): string | undefined {
  const fromEnv = process.env.RUBRICATE_CASSETTES?.trim()
  if (fromEnv) return parseCassetteMode(fromEnv, 'RUBRICATE_CASSETTES')
  return options.cassettes?.mode
}

export default rubricate

/** The config file the run was started with (`--config`, or the one Vitest found), absolute. */
function configFileOf(vitest: { vite?: { config?: { configFile?: string | undefined } } }) {
  const file = vitest.vite?.config?.configFile
  return typeof file === 'string' ? file : undefined
}
