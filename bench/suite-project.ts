// The suite benchmark's generated projects (ARCHITECTURE.md §10): a user's test suite of `files` test
// files with `tests` tests each, in four variants that differ only in what the issue asks about:
//
//   plain    the suite without rubricate: no plugin, every test a plain `toContain` assertion
//   plugin   the same tests with the rubricate plugin in the config (no rubric assertion)
//   rubric   the plugin, and every test a replayed `toSatisfyRubric`
//   mix      the plugin, and one file in five (files 0, 5, 10...) of rubric tests, the rest plain
//
// rubricate is installed from dist/ into the scratch folder's node_modules, as `npm install` would;
// every variant of every size reads one cassette folder, recorded once against startFakeOpenAI.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI } from '../src/testing'
import { keywordJudge } from '../test/support/keyword-judge'
import { repoRoot } from '../test/support/run-vitest'
import { median, reapedChildrenCpuMs, runChild } from './measure'
import { DEAD_JUDGE_URL } from './replay-project'

/** The variants of the suite, in the order a round runs them first. */
export const VARIANTS = ['plain', 'plugin', 'rubric', 'mix'] as const
export type SuiteVariant = (typeof VARIANTS)[number]

/** The size of a generated suite. */
export interface SuiteSize {
  files: number
  /** Tests per file. */
  tests: number
}

const RUBRIC = '- Mentions refund\\n- Mentions sorry\\n- (optional) Mentions days'

const PACKAGE = `${JSON.stringify({ name: 'rubricate-bench-suite', private: true, type: 'module' }, null, 2)}\n`

const PLAIN_CONFIG = `import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { include: ['*.test.ts'] } })
`

const PLUGIN_CONFIG = `import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [
    rubricate({
      judge: { model: 'gpt-4.1-mini', baseURL: process.env.FAKE_OPENAI_URL, apiKey: 'sk-bench-0000' },
      cassettes: { dir: process.env.BENCH_CASSETTES },
      // The shared-worker runs take init --fast's choice (docs/guide/fast-setup.md); the key only
      // when set, so that a build from before the option (--dist, compare-builds) runs too.
      ...(process.env.BENCH_ANNOTATIONS ? { annotations: 'failures' as const } : {}),
    }),
  ],
  test: { include: ['*.test.ts'] },
})
`

/** Whether file `index` of `variant` holds rubric tests. */
export function isRubricFile(variant: SuiteVariant, index: number): boolean {
  return variant === 'rubric' || (variant === 'mix' && index % 5 === 0)
}

function fileName(index: number): string {
  return `suite-${String(index).padStart(3, '0')}.test.ts`
}

// The same test names and replies in every variant and size, so one cassette folder serves all.
function testFile(index: number, tests: number, rubric: boolean): string {
  const body = Array.from({ length: tests }, (_, i) => {
    const reply = `sorry, the refund for order ${index}-${i} arrives in 3 days`
    return rubric
      ? `test('answer ${i}', async () => {\n  await expect('${reply}').toSatisfyRubric(rubric)\n})\n`
      : `test('answer ${i}', () => {\n  expect('${reply}').toContain('refund')\n})\n`
  })
  const head = rubric
    ? `import { expect, test } from 'vitest'\n\nconst rubric = '${RUBRIC}'\n\n`
    : `import { expect, test } from 'vitest'\n\n`
  return head + body.join('\n')
}

/** The folder of one variant of one size under the scratch folder `root`. */
export function variantDir(root: string, size: SuiteSize, variant: SuiteVariant): string {
  return join(root, `${size.files}x${size.tests}`, variant)
}

/**
 * Install rubricate from `dist` (default the repository's dist/) into `root`'s node_modules; once
 * for every project under `root`. The copy is what every run measures, whatever is built later.
 */
export async function installRubricate(
  root: string,
  dist: string = join(repoRoot, 'dist'),
): Promise<void> {
  const installed = join(root, 'node_modules', 'rubricate')
  await mkdir(installed, { recursive: true })
  await cp(join(repoRoot, 'package.json'), join(installed, 'package.json'))
  await cp(dist, join(installed, 'dist'), { recursive: true })
}

const vitestBin = join(repoRoot, 'node_modules/vitest/vitest.mjs')
// Only what a shell needs: none of this machine's CI, RUBRICATE_* or OPENAI_* variables.
const PASSED_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'LANG']

/** Write the four variants of a suite of `size` under `root`. */
export async function writeSuite(root: string, size: SuiteSize): Promise<void> {
  await Promise.all(
    VARIANTS.map(async (variant) => {
      const dir = variantDir(root, size, variant)
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, 'package.json'), PACKAGE)
      await writeFile(
        join(dir, 'vitest.config.ts'),
        variant === 'plain' ? PLAIN_CONFIG : PLUGIN_CONFIG,
      )
      for (let index = 0; index < size.files; index++) {
        await writeFile(
          join(dir, fileName(index)),
          testFile(index, size.tests, isRubricFile(variant, index)),
        )
      }
    }),
  )
}

/** One whole `vitest run` of a suite: CPU of its process tree and wall time, in ms. */
export interface SuiteRun {
  cpuMs: number
  wallMs: number
  /** CPU of Vitest's main process alone. */
  mainCpuMs?: number | undefined
  /** The median CPU of the run's workers: one test file each (`worker-cpu.cjs`). */
  workerCpuMs?: number | undefined
}

const WORKER_CPU = join(import.meta.dirname, 'worker-cpu.cjs')
let cpuFiles = 0

/**
 * Run `vitest run` in `dir` as a user's CI would (`CI=true`, nothing else of this machine's
 * environment), replaying from `cassettes` with the judge at a closed port. Throws unless every one
 * of the `expected` tests passed: a figure of a failing run would be a figure of the failure.
 */
export async function runSuiteProject(
  dir: string,
  cassettes: string,
  expected: number,
  extraEnv: Record<string, string> = {},
  ci = true,
  args: readonly string[] = [],
): Promise<SuiteRun> {
  const cpuFile = join(tmpdir(), `rubricate-bench-cpu-${process.pid}-${cpuFiles++}.txt`)
  const before = reapedChildrenCpuMs()
  const started = performance.now()
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' }
  for (const name of PASSED_THROUGH) if (process.env[name]) env[name] = process.env[name]
  if (ci) env.CI = 'true'
  Object.assign(env, {
    FAKE_OPENAI_URL: DEAD_JUDGE_URL,
    BENCH_CASSETTES: cassettes,
    NODE_OPTIONS: `--require=${WORKER_CPU}`,
    RUBRICATE_BENCH_CPU_FILE: cpuFile,
    ...extraEnv,
  })
  const run = await runChild(process.execPath, [vitestBin, 'run', ...args], {
    cwd: dir,
    env,
    timeoutMs: 600_000,
  })
  const wallMs = performance.now() - started
  const cpuMs = reapedChildrenCpuMs() - before
  const processes = await processCpu(cpuFile)
  const passed = /Tests\s+(\d+) passed \((\d+)\)/.exec(run.stdout)
  if (run.exitCode !== 0 || passed?.[1] !== String(expected) || passed[2] !== String(expected)) {
    throw new Error(
      `The suite benchmark's project in ${dir} did not pass all its ${expected} tests (exit code ${run.exitCode}):\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`,
    )
  }
  return { cpuMs, wallMs, ...processes }
}

// What worker-cpu.cjs wrote for one run, then the file is removed.
async function processCpu(file: string): Promise<Pick<SuiteRun, 'mainCpuMs' | 'workerCpuMs'>> {
  const text = await readFile(file, 'utf8').catch(() => '')
  await rm(file, { force: true })
  const lines = text.split('\n').map((line) => line.split(' '))
  const of = (role: string) => lines.filter(([name]) => name === role).map(([, ms]) => Number(ms))
  const [main] = of('main')
  const workers = of('worker')
  return {
    mainCpuMs: main,
    workerCpuMs: workers.length > 0 ? median(workers) : undefined,
  }
}

/**
 * Record the cassettes of the `rubric` variant of `size` (the largest suite measured: every
 * smaller one asks for a subset of its requests) into `cassettes`, against startFakeOpenAI.
 * Returns the number of judge requests it answered.
 */
export async function recordSuite(
  root: string,
  size: SuiteSize,
  cassettes: string,
): Promise<number> {
  const fake = await startFakeOpenAI({ reply: keywordJudge })
  try {
    await runSuiteProject(
      variantDir(root, size, 'rubric'),
      cassettes,
      size.files * size.tests,
      { FAKE_OPENAI_URL: fake.baseURL, RUBRICATE_CASSETTES: 'record' },
      false,
    )
    return fake.requests.length
  } finally {
    await fake.close()
  }
}
