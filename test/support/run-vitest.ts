// Runs Vitest as a child process on a fixture project under test/fixtures/, the way a user runs it,
// with the environment pinned: the child sees none of this machine's CI, AI-agent, RUBRICATE_* or
// OPENAI_* variables, only what a test asks for. Fixtures without a package.json of their own
// import `rubricate` through this repository's exports map, so they run against dist/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { cp, rm } from 'node:fs/promises'
import { basename, isAbsolute, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { runChild } from './run-child'

/** The repository root. */
export const repoRoot: string = resolve(import.meta.dirname, '../..')
/**
 * The `NODE_OPTIONS` value that preloads the loopback guard (test/support/loopback-guard.mjs) into a
 * child process: any connection outside loopback then fails it.
 */
export const loopbackGuardOption: string = `--import=${pathToFileURL(join(repoRoot, 'test/support/loopback-guard.mjs')).href}`
/** The folder of fixture projects. */
export const fixturesDir: string = join(repoRoot, 'test/fixtures')

const vitestBin = join(repoRoot, 'node_modules/vitest/vitest.mjs')
/** The major version of the installed Vitest: 4 in the Node 20 lane, 5 in the Node 22 lanes. */
export const vitestMajor: number = Number(
  JSON.parse(
    readFileSync(join(repoRoot, 'node_modules/vitest/package.json'), 'utf8'),
  ).version.split('.')[0],
)
// Copies live inside the repository, so that they still self-reference `rubricate` (Node stops
// looking for the package scope at a node_modules folder, so a copy under node_modules could not),
// and next to the fixtures, so that their imports of shared fixture files (`../records`) resolve.
const COPY_PREFIX = '.tmp-'

/** Variables passed through from this process; everything else is dropped. */
const PASSED_THROUGH = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'SystemRoot',
  'USERPROFILE',
]

export interface RunVitestOptions {
  /** Set `CI=true` in the child. Default: `CI` is unset. */
  ci?: boolean | undefined
  /** Extra environment variables; `undefined` removes one. `NO_COLOR=1` is set unless removed. */
  env?: Record<string, string | undefined> | undefined
  /** Kill the run after this long. Default 90 s (the machine is shared and has 2 cores). */
  timeoutMs?: number | undefined
}

export interface VitestRun {
  exitCode: number | null
  /** Normalised stdout (see {@link normalise}). */
  stdout: string
  /** Normalised stderr. */
  stderr: string
  /** The output exactly as written. */
  raw: { stdout: string; stderr: string }
  /** The fixture project's folder. */
  root: string
}

/**
 * Run `vitest run ...args` in a fixture project (a folder name under test/fixtures/, or an absolute
 * path, e.g. from {@link copyFixture}). Resolves when Vitest exits, whatever its exit code.
 *
 * @example
 * const run = await runVitest('rubric-pass', ['--reporter=dot'], { ci: true })
 * expect(run.exitCode).toBe(0)
 */
export async function runVitest(
  fixture: string,
  args: string[] = [],
  options: RunVitestOptions = {},
): Promise<VitestRun> {
  assertDistIsBuilt()
  const root = isAbsolute(fixture) ? fixture : join(fixturesDir, fixture)
  if (!existsSync(root)) throw new Error(`No fixture project at ${root}.`)
  const env = pinnedEnv(options)
  const timeoutMs = options.timeoutMs ?? 90_000
  const { exitCode, stdout, stderr } = await runChild(
    process.execPath,
    [vitestBin, 'run', ...args],
    { cwd: root, env, timeoutMs },
  )
  return {
    exitCode,
    stdout: normalise(stdout, root),
    stderr: normalise(stderr, root),
    raw: { stdout, stderr },
    root,
  }
}

/**
 * Make Vitest output comparable between runs, machines and Vitest majors: colours stripped,
 * durations masked (`12ms` and `1.20s` both become `[...]ms`, after one space, so a slow run on a
 * busy machine compares equal), the breakdown after the run's duration shown as `(...)`, clock
 * times masked, the fixture folder shown as `<root>` and the repository as `<repo>`, Vitest's
 * version masked, Vitest 5's `TestTimeoutError` shown as Vitest 4's `Error`, trailing spaces
 * dropped.
 */
export function normalise(text: string, root?: string): string {
  let out = stripVTControlCharacters(text).replace(/\r\n/g, '\n')
  if (root) out = out.split(root).join('<root>')
  out = out.split(repoRoot).join('<repo>')
  return (
    out
      .replace(/\d+ms\b/g, '[...]ms')
      .replace(/\b\d+\.\d+s\b/g, '[...]ms')
      // Vitest prints a slow test's duration after two spaces instead of one.
      .replace(/^( *[✓×↓] .*\S) {2}\[\.\.\.\]ms$/gm, '$1 [...]ms')
      .replace(/\b\d{2}:\d{2}:\d{2}\b/g, '[time]')
      .replace(/(RUN|MERGE REPORTS) +v\d+\.\d+\.\d+\S*/g, '$1  v[version]')
      // Vitest 5 names the timeout error and breaks the duration down in percentages.
      .replace(/\bTestTimeoutError: Test timed out/g, 'Error: Test timed out')
      .replace(/^( +Duration +\[\.\.\.\]ms) \(.*\)[ \t]*$/gm, '$1 (...)')
      .replace(/[ \t]+$/gm, '')
  )
}

/**
 * Copy a fixture project to a fresh folder (test/fixtures/.tmp-*, git-ignored), for tests that
 * change files or leave state (cassettes, the run marker). Remove it with {@link removeCopy}.
 */
export async function copyFixture(name: string): Promise<string> {
  copies += 1
  const dir = join(fixturesDir, `${COPY_PREFIX}${name}-${process.pid}-${copies}`)
  await rm(dir, { recursive: true, force: true })
  await cp(join(fixturesDir, name), dir, {
    recursive: true,
    filter: (source) => !source.split(/[\\/]/).includes('node_modules'),
  })
  return dir
}
let copies = 0

/** Remove a folder made by {@link copyFixture}. */
export async function removeCopy(dir: string): Promise<void> {
  if (relative(fixturesDir, dir) !== basename(dir) || !basename(dir).startsWith(COPY_PREFIX)) {
    throw new Error(`${dir} is not a fixture copy.`)
  }
  await rm(dir, { recursive: true, force: true })
}

function pinnedEnv(options: RunVitestOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const name of PASSED_THROUGH) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  env.NO_COLOR = '1'
  if (options.ci) env.CI = 'true'
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}

const BUILT_FROM = ['src', 'matchers', 'reporters']
const ENTRIES = ['index.js', 'plugin.js', 'reporter.js', 'setup.js', 'matchers.js', 'cli.js']

/** Fail early with a clear message when dist/ is missing or older than the sources. */
export function assertDistIsBuilt(): void {
  const missing = ENTRIES.filter((entry) => !existsSync(join(repoRoot, 'dist', entry)))
  if (missing.length > 0) {
    throw new Error(
      `dist/ is missing ${missing.join(', ')}: the end-to-end tests run fixture projects against the built package. Run "npm run build" first (npm test does it for you).`,
    )
  }
  const built = statSync(join(repoRoot, 'dist/index.js')).mtimeMs
  const newer = newestSource().find((file) => statSync(file).mtimeMs > built)
  if (newer) {
    throw new Error(
      `dist/ is older than ${relative(repoRoot, newer)}: the end-to-end tests would run stale code. Run "npm run build" first (npm test does it for you).`,
    )
  }
}

function newestSource(): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts')) files.push(path)
    }
  }
  for (const dir of BUILT_FROM) walk(join(repoRoot, dir))
  return files
}
