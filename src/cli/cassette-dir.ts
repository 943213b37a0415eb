/**
 * Where a command's cassette folder is: `--dir` when given, else the folder the project's Vitest
 * config gives the rubricate plugin (`cassettes.dir`, resolved against the config's root), else
 * `__cassettes__` in the current folder when there is no config file.
 */

import { existsSync, statSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import { UsageError } from '../errors'
import { cliMessages } from './cli-messages'
import { CommandLineError } from './command-options'

const CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap((name) =>
  ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `${name}.${ext}`),
)

/** The Vitest config file of a project folder, `undefined` when it has none. @internal */
export function findVitestConfig(cwd: string): string | undefined {
  return CONFIG_FILES.map((name) => resolve(cwd, name)).find((file) => existsSync(file))
}

/**
 * The cassette folder of a command. Loading the config costs Vitest's own config resolution
 * (about half a second), so it runs only when `--dir` is not given; Vitest is imported lazily, so
 * the core never loads it. A config that cannot be loaded is a usage error saying to pass --dir.
 * @internal
 */
export async function cassetteDirFor(
  cwd: string,
  dir: string | undefined,
  config?: string | undefined,
): Promise<string> {
  if (dir !== undefined) return resolve(cwd, dir)
  const file = config === undefined ? findVitestConfig(cwd) : resolve(cwd, config)
  if (file === undefined) return resolve(cwd, '__cassettes__')
  return (await cassetteDirFromConfig(file, cwd)) ?? resolve(cwd, '__cassettes__')
}

/**
 * The cassette folder of a command that reads one (stats, verify, migrate), checked to be a folder
 * that exists: a path given with `--dir` that is not one is a usage error (exit 2), a folder from
 * the config or the default that is not there fails the command (exit 1). Either names the path,
 * so a typo is never read as an empty folder.
 * @internal
 */
export async function existingCassetteDir(
  cwd: string,
  dir: string | undefined,
  config?: string | undefined,
): Promise<string> {
  const folder = await cassetteDirFor(cwd, dir, config)
  const problem = folderProblem(folder)
  if (problem === undefined) return folder
  const shown = relative(cwd, folder).split(sep).join('/') || '.'
  const from =
    dir !== undefined
      ? 'given with --dir'
      : config !== undefined || findVitestConfig(cwd) !== undefined
        ? 'of the Vitest config'
        : '(the default, as there is no Vitest config here)'
  const message = cliMessages.notAFolder(shown, problem, `the cassette folder ${from}`)
  throw dir !== undefined ? new CommandLineError(message) : new UsageError(message)
}

/** Why `path` is not a folder to read (`missing`, `file`), `undefined` when it is one. @internal */
export function folderProblem(path: string): 'missing' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : 'file'
  } catch {
    return 'missing'
  }
}

/**
 * The cassette folder the rubricate plugin of a Vitest config uses; `undefined` when the config
 * has no rubricate plugin. Vitest resolves the config itself (TypeScript, `defineConfig`, async
 * configs), so the answer is the folder a run of that config would use.
 * @internal
 */
export async function cassetteDirFromConfig(
  file: string,
  cwd: string,
): Promise<string | undefined> {
  if (!existsSync(file)) throw new CommandLineError(cliMessages.configNotFound(file))
  // Vitest 4 answers { vitestConfig, viteConfig }; Vitest 5 answers Vite's resolved config, whose
  // `test` is Vitest's.
  let resolved: VitestResolved
  try {
    // The one place the core loads Vitest, and only when asked to: see ARCHITECTURE.md §14.
    const vitest = (await import('vitest/node')) as unknown as {
      resolveConfig(options: object): Promise<VitestResolved>
    }
    resolved = await vitest.resolveConfig({ config: file, root: cwd, watch: false })
  } catch (error) {
    throw new UsageError(cliMessages.configUnreadable(file, (error as Error).message), {
      cause: error,
    })
  }
  const viteConfig = resolved.viteConfig ?? resolved
  const root = resolved.vitestConfig?.root ?? resolved.test?.root ?? resolved.root ?? cwd
  const plugin = (viteConfig.plugins ?? []).find(
    (each) => (each as { name?: unknown } | null)?.name === 'rubricate',
  ) as { api?: { rubricateOptions?: { cassettes?: { dir?: string } } } } | undefined
  if (!plugin) return undefined
  return resolve(root, plugin.api?.rubricateOptions?.cassettes?.dir ?? '__cassettes__')
}

/** What `resolveConfig` of `vitest/node` answers, in the parts read here (Vitest 4 and 5). */
interface VitestResolved {
  root?: string
  plugins?: readonly unknown[]
  test?: { root?: string }
  vitestConfig?: { root: string }
  viteConfig?: { plugins?: readonly unknown[] }
}
