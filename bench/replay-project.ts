// A generated Vitest project that uses rubricate as a user does (the plugin, its setup file, the
// matchers, the cassette store, all from dist/), for the replay figures of ARCHITECTURE.md §10. Its
// cassettes are recorded once against startFakeOpenAI, then every measured run replays them with
// the judge's address pointing at a closed port, so a call that went live would fail the run.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startFakeOpenAI } from '../src/testing'
import { keywordJudge } from '../test/support/keyword-judge'
import { repoRoot, runVitest } from '../test/support/run-vitest'

/** A judge address where nothing listens (the discard port): replay must never reach it. */
export const DEAD_JUDGE_URL = 'http://127.0.0.1:9/v1'

const RUBRIC = '- Mentions refund\\n- Mentions sorry\\n- (optional) Mentions days'

const PACKAGE = `${JSON.stringify({ name: 'rubricate-bench-project', private: true, type: 'module' }, null, 2)}\n`

const CONFIG = `import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [
    rubricate({
      judge: { model: 'gpt-4.1-mini', baseURL: process.env.FAKE_OPENAI_URL, apiKey: 'sk-bench-0000' },
      cassettes: { dir: process.env.BENCH_CASSETTES ?? '__cassettes__' },
    }),
  ],
  test: { include: ['*.test.ts'], reporters: ['./bench-reporter.ts'] },
})
`

// Vitest's own figures per file and per test, and the assertion's own time (task.meta.benchMs),
// written as JSON to $BENCH_OUTPUT.
const REPORTER = `import { writeFileSync } from 'node:fs'

export default class BenchReporter {
  onTestRunEnd(modules: any[]) {
    const out = { modules: [], tests: [] }
    for (const module of modules) {
      const d = module.diagnostic()
      out.modules.push({
        file: module.relativeModuleId,
        state: module.state(),
        errors: module.errors().map((e: any) => e.message),
        setupMs: d.setupDuration,
        collectMs: d.collectDuration,
        prepareMs: d.prepareDuration,
        environmentMs: d.environmentSetupDuration,
        testsMs: d.duration,
        testsCpuMs: module.meta().benchCpuMs,
      })
      for (const test of module.children.allTests()) {
        const result = test.result()
        out.tests.push({
          file: module.relativeModuleId,
          name: test.name,
          state: result.state,
          error: result.errors?.[0]?.message,
          durationMs: test.diagnostic()?.duration,
          assertionMs: test.meta().benchMs,
        })
      }
    }
    writeFileSync(process.env.BENCH_OUTPUT, JSON.stringify(out))
  }
}
`

/** The output a test grades; distinct per test, so each replay reads its own cassette entry. */
function output(file: string, index: number): string {
  return `sorry, refund ${file} ${index} arrives in 3 days`
}

// A plain test and a rubric test, alike in every way but the assertion, with the assertion timed
// by the same wrapper in both.
function plainTest(index: number): string {
  return `test('plain ${index}', ({ task }) => {
  const value = 'value ${index}'
  const started = performance.now()
  expect(value).toBe(value)
  task.meta.benchMs = performance.now() - started
})
`
}

function rubricTest(file: string, index: number): string {
  if (file === 'thousand') return userTest(index)
  return `test('rubric ${index}', async ({ task }) => {
  const value = '${output(file, index)}'
  const started = performance.now()
  await expect(value).toSatisfyRubric(rubric)
  task.meta.benchMs = performance.now() - started
})
`
}

// A rubric test as a user writes it: no timing of its own (nor the test context that takes).
function userTest(index: number): string {
  return `test('rubric ${index}', async () => {
  await expect('${output('thousand', index)}').toSatisfyRubric(rubric)
})
`
}

/** Sizes of the generated files. */
export interface ReplayProjectSize {
  /** Plain/rubric test pairs in overhead.test.ts, interleaved. */
  pairs: number
  /** Rubric tests in thousand.test.ts. */
  thousand: number
  /** Rubric tests in startup.test.ts (the store's start-up figure). */
  startup: number
}

/**
 * Write the project into `root`, with rubricate installed in its node_modules from dist/ (as
 * `npm install` would put it there): Vitest then loads it as a dependency, untransformed, as it
 * does in a user's project. A package.json of its own keeps Node from resolving `rubricate` to
 * this repository by self-reference.
 */
export async function writeReplayProject(root: string, size: ReplayProjectSize): Promise<void> {
  const installed = join(root, 'node_modules', 'rubricate')
  await mkdir(installed, { recursive: true })
  await cp(join(repoRoot, 'package.json'), join(installed, 'package.json'))
  await cp(join(repoRoot, 'dist'), join(installed, 'dist'), { recursive: true })
  const header = `import { expect, test } from 'vitest'\n\nconst rubric = '${RUBRIC}'\n\n`
  const overhead = Array.from(
    { length: size.pairs },
    (_, i) => `${plainTest(i)}\n${rubricTest('overhead', i)}`,
  )
  const thousand = Array.from({ length: size.thousand }, (_, i) => rubricTest('thousand', i))
  // The CPU time the worker spends on the file's tests: unlike wall time, hardly changed by the
  // machine's load.
  const cpu = `import { afterAll, beforeAll } from 'vitest'

let cpu = process.cpuUsage()
beforeAll(() => {
  cpu = process.cpuUsage()
})
afterAll(({}, suite) => {
  const used = process.cpuUsage(cpu)
  suite.meta.benchCpuMs = (used.user + used.system) / 1000
})
`
  const startup = Array.from({ length: size.startup }, (_, i) => rubricTest('startup', i))
  await Promise.all([
    writeFile(join(root, 'package.json'), PACKAGE),
    writeFile(join(root, 'vitest.config.ts'), CONFIG),
    writeFile(join(root, 'bench-reporter.ts'), REPORTER),
    writeFile(join(root, 'overhead.test.ts'), header + overhead.join('\n')),
    writeFile(join(root, 'thousand.test.ts'), cpu + header + thousand.join('\n')),
    writeFile(join(root, 'startup.test.ts'), header + startup.join('\n')),
  ])
}

/** What the bench reporter wrote for one run. */
export interface ProjectReport {
  modules: {
    file: string
    state: string
    errors: string[]
    setupMs: number
    collectMs: number
    prepareMs: number
    environmentMs: number
    testsMs: number
    testsCpuMs?: number | undefined
  }[]
  tests: {
    file: string
    name: string
    state: string
    error?: string | undefined
    durationMs: number
    assertionMs: number
  }[]
}

/** One `vitest run` of the project, with its report and its wall time (spawn to exit). */
export interface ProjectRun {
  report: ProjectReport
  wallMs: number
}

/**
 * Run Vitest on `files` of the project. Throws unless every test passed: a figure measured on a
 * failing run would be a figure of the failure.
 */
export async function runProject(
  root: string,
  files: string[],
  env: Record<string, string>,
): Promise<ProjectRun> {
  const output = join(root, `report-${Math.random().toString(36).slice(2)}.json`)
  const started = performance.now()
  const run = await runVitest(root, files, {
    env: { ...env, BENCH_OUTPUT: output },
    timeoutMs: 300_000,
  })
  const wallMs = performance.now() - started
  const report = JSON.parse(await readFile(output, 'utf8').catch(() => '{"tests":[]}'))
  const failed = (report as ProjectReport).tests.filter((test) => test.state !== 'passed')
  if (run.exitCode !== 0 || failed.length > 0 || report.modules === undefined) {
    const first = failed[0]
    throw new Error(
      `The benchmark project failed (vitest run ${files.join(' ')}, exit code ${run.exitCode}): ${
        first ? `"${first.name}": ${first.error}` : ''
      }\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`,
    )
  }
  return { report, wallMs }
}

/**
 * Record every cassette of the project against startFakeOpenAI (a keyword judge, no latency).
 * Returns the number of judge requests it answered.
 */
export async function recordProject(root: string, files: string[]): Promise<number> {
  const fake = await startFakeOpenAI({ reply: keywordJudge })
  try {
    await runProject(root, files, {
      FAKE_OPENAI_URL: fake.baseURL,
      RUBRICATE_CASSETTES: 'record',
    })
    return fake.requests.length
  } finally {
    await fake.close()
  }
}

/** The environment of a replay run: replay mode, and a judge where nothing listens. */
export function replayEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { FAKE_OPENAI_URL: DEAD_JUDGE_URL, RUBRICATE_CASSETTES: 'replay', ...extra }
}
