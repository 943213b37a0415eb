// Figures 1 and 2 of ARCHITECTURE.md §10, measured on the generated project (replay-project.ts): the cost a
// replayed toSatisfyRubric adds to a test, and the time of a file of 1,000 replayed assertions.
import { median, round } from './measure'
import { type ProjectReport, replayEnv, runProject } from './replay-project'

/** Figure 1: a replayed rubric test against a plain `expect(x).toBe(x)` test of the same file. */
export interface ReplayOverheadFigures {
  /** Median over runs of the median Vitest duration of a plain test, in ms. */
  plainTestMs: number
  /** The same for a replayed rubric test. */
  rubricTestMs: number
  /** Median over runs of (rubric median - plain median): the figure held against 0.6 ms. */
  overheadMs: number
  /** `rubricTestMs / plainTestMs`. */
  ratio: number
  /** The assertion alone, timed inside the test (median over runs of the per-run medians). */
  plainAssertionMs: number
  rubricAssertionMs: number
  /** Per run: [plain median, rubric median] in ms. */
  perRun: [number, number][]
  pairs: number
  runs: number
}

/** Figure 2: one file of replayed rubric tests. */
export interface ThousandFigures {
  /** Median over runs of the file's time as Vitest reports it: setup file + import + tests. */
  fileMs: number
  /** Median over runs of the tests alone (hooks included). */
  testsMs: number
  /** Median over runs of the whole `vitest run` process, start-up and reporting included. */
  processMs: number
  /** Median over runs of the CPU time the worker spent on the tests. */
  testsCpuMs: number
  /** Per run: file time in ms. */
  perRun: number[]
  tests: number
  runs: number
}

/** Run overhead.test.ts `runs` times and compare its plain and rubric tests. */
export async function measureReplayOverhead(
  root: string,
  runs: number,
): Promise<ReplayOverheadFigures> {
  const perRun: [number, number][] = []
  const assertions: [number, number][] = []
  let pairs = 0
  for (let run = 0; run < runs; run++) {
    const { report } = await runProject(root, ['overhead.test.ts'], replayEnv())
    const plain = report.tests.filter((test) => test.name.startsWith('plain '))
    const rubric = report.tests.filter((test) => test.name.startsWith('rubric '))
    pairs = plain.length
    perRun.push([
      median(plain.map((test) => test.durationMs)),
      median(rubric.map((test) => test.durationMs)),
    ])
    assertions.push([
      median(plain.map((test) => test.assertionMs)),
      median(rubric.map((test) => test.assertionMs)),
    ])
  }
  const plainTestMs = median(perRun.map(([plain]) => plain))
  const rubricTestMs = median(perRun.map(([, rubric]) => rubric))
  return {
    plainTestMs: round(plainTestMs, 4),
    rubricTestMs: round(rubricTestMs, 4),
    overheadMs: round(median(perRun.map(([plain, rubric]) => rubric - plain)), 4),
    ratio: round(rubricTestMs / plainTestMs, 2),
    plainAssertionMs: round(median(assertions.map(([plain]) => plain)), 4),
    rubricAssertionMs: round(median(assertions.map(([, rubric]) => rubric)), 4),
    perRun: perRun.map(([plain, rubric]) => [round(plain, 4), round(rubric, 4)]),
    pairs,
    runs,
  }
}

/** Run thousand.test.ts `runs` times and time the file. */
export async function measureThousand(root: string, runs: number): Promise<ThousandFigures> {
  const files: number[] = []
  const tests: number[] = []
  const processes: number[] = []
  const cpu: number[] = []
  let count = 0
  for (let run = 0; run < runs; run++) {
    const { report, wallMs } = await runProject(root, ['thousand.test.ts'], replayEnv())
    const module = onlyModule(report)
    count = report.tests.length
    files.push(module.setupMs + module.collectMs + module.testsMs)
    tests.push(module.testsMs)
    processes.push(wallMs)
    cpu.push(module.testsCpuMs ?? Number.NaN)
  }
  return {
    fileMs: round(median(files), 1),
    testsMs: round(median(tests), 1),
    processMs: round(median(processes), 1),
    testsCpuMs: round(median(cpu), 1),
    perRun: files.map((ms) => round(ms, 1)),
    tests: count,
    runs,
  }
}

/** The report's one module. @internal */
export function onlyModule(report: ProjectReport): ProjectReport['modules'][number] {
  const [module] = report.modules
  if (!module || report.modules.length !== 1) {
    throw new Error(`Expected one test file in the run, got ${report.modules.length}.`)
  }
  return module
}
