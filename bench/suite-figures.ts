// The headline of `npm run bench` (ARCHITECTURE.md §10): what rubricate costs a user's whole suite, as
// the CPU of the whole `vitest run` process tree, paired round by round with the same suite without
// rubricate, and how that cost grows with files and with tests (a plane fitted over four sizes).
import { join } from 'node:path'
import { fitPlane, median, round } from './measure'
import {
  installRubricate,
  isRubricFile,
  recordSuite,
  runSuiteProject,
  type SuiteRun,
  type SuiteSize,
  type SuiteVariant,
  VARIANTS,
  variantDir,
  writeSuite,
} from './suite-project'

/** How the suite benchmark runs. */
export interface SuiteBenchOptions {
  /** The headline suite. Default 20 files x 10 tests. */
  size: SuiteSize
  /** Paired rounds at the headline size. Default 5. */
  rounds: number
  /** Paired rounds at each of the three other sizes of the fit. Default 3. */
  fitRounds: number
  /** The build measured. Default the repository's dist/. */
  dist?: string | undefined
}

/** One variant of one size: its runs, and its medians paired with `plain`. */
export interface VariantFigures {
  /** Median CPU of a whole run, ms. */
  cpuMs: number
  /** Median wall time of a whole run, ms. */
  wallMs: number
  /** Median over rounds of this variant's CPU / plain's CPU of the same round. */
  ratio: number
  /** Median over rounds of this variant's CPU - plain's CPU of the same round, ms. */
  extraCpuMs: number
  /** Median over rounds of the median CPU of one worker (one test file), ms. */
  workerCpuMs?: number | undefined
  /**
   * Median over rounds of this variant's worker median - plain's of the same round, ms: what one
   * test file costs more, measured in the workers rather than fitted.
   */
  extraWorkerCpuMs?: number | undefined
  /** Median over rounds of the CPU of Vitest's main process, ms. */
  mainCpuMs?: number | undefined
  runs: SuiteRun[]
}

/** rubricate's cost as a line: `perRunMs + perFileMs·files + perTestMs·tests`. */
export interface CostFit {
  perRunMs: number
  perFileMs: number
  perTestMs: number
}

export interface SuiteFigures {
  size: SuiteSize
  rounds: number
  fitRounds: number
  /** Every size measured, its variants by name. */
  sizes: { size: SuiteSize; variants: Record<SuiteVariant, VariantFigures> }[]
  /** The plain suite's own CPU as a line (Vitest's cost), over the four sizes. */
  plainFit: CostFit
  /** rubricate's extra CPU over plain, as a line, per variant fitted (mix is measured at the headline size only). */
  extraFit: Record<'plugin' | 'rubric', CostFit>
  recordedJudgeCalls: number
}

/** The four sizes of the fit: the headline, half the files, twice the tests, both. */
export function fitSizes(size: SuiteSize): SuiteSize[] {
  const half = Math.max(1, Math.round(size.files / 2))
  return [
    size,
    { files: half, tests: size.tests },
    { files: size.files, tests: size.tests * 2 },
    { files: half, tests: size.tests * 2 },
  ]
}

/**
 * Generate the suites under `scratch`, record the cassettes once, then run every variant of every
 * size in paired rounds (each round runs the variants in a rotated order, so that none always
 * follows another) and fit the costs.
 */
export async function measureSuite(
  scratch: string,
  options: SuiteBenchOptions,
  log: (text: string) => void,
): Promise<SuiteFigures> {
  const sizes = fitSizes(options.size)
  const cassettes = join(scratch, 'cassettes')
  await installRubricate(scratch, options.dist)
  for (const size of sizes) await writeSuite(scratch, size)
  const largest = { files: options.size.files, tests: options.size.tests * 2 }
  log(`recording the cassettes of ${largest.files} files x ${largest.tests} tests`)
  const recordedJudgeCalls = await recordSuite(scratch, largest, cassettes)

  const measured: SuiteFigures['sizes'] = []
  for (const [index, size] of sizes.entries()) {
    const headline = index === 0
    const rounds = headline ? options.rounds : options.fitRounds
    // The mix is a figure of the headline size; the fit needs plain, plugin and rubric.
    const variants = VARIANTS.filter((variant) => headline || variant !== 'mix')
    const runs = new Map<SuiteVariant, SuiteRun[]>(variants.map((variant) => [variant, []]))
    for (let r = 0; r < rounds; r++) {
      log(`suite ${size.files} files x ${size.tests} tests, round ${r + 1} of ${rounds}`)
      const order = variants.map((_, i) => variants[(i + r) % variants.length] as SuiteVariant)
      for (const variant of order) {
        const run = await runSuiteProject(
          variantDir(scratch, size, variant),
          cassettes,
          size.files * size.tests,
        )
        runs.get(variant)?.push(run)
      }
    }
    measured.push({ size, variants: summarise(runs) as Record<SuiteVariant, VariantFigures> })
  }

  const points = (pick: (v: Record<SuiteVariant, VariantFigures>) => number) =>
    measured.map(({ size, variants }) => ({
      x1: size.files,
      x2: size.files * size.tests,
      y: pick(variants),
    }))
  return {
    size: options.size,
    rounds: options.rounds,
    fitRounds: options.fitRounds,
    sizes: measured,
    plainFit: costFit(points((v) => v.plain.cpuMs)),
    extraFit: {
      plugin: costFit(points((v) => v.plugin.extraCpuMs)),
      rubric: costFit(points((v) => v.rubric.extraCpuMs)),
    },
    recordedJudgeCalls,
  }
}

/** The pools the shared-worker suite runs under: Vitest's two Node pools. */
export const SHARED_POOLS = ['threads', 'forks'] as const
export type SharedPool = (typeof SHARED_POOLS)[number]

/** The shared-worker suite: the headline size's variants, every file in shared workers. */
export interface SharedSuiteFigures {
  size: SuiteSize
  rounds: number
  /** Per pool measured, the variants paired with plain in the same setup. */
  pools: Partial<Record<SharedPool, Record<SuiteVariant, VariantFigures>>>
}

/**
 * The headline suite again with its files sharing workers (`--no-isolate`, the setup
 * `rubricate init --fast` writes for rubric files), under each pool: every variant, plain
 * included, runs in that same setup, so the ratios are rubricate's cost where Vitest's isolation
 * is gone. Reuses the projects and cassettes of {@link measureSuite} under `scratch`.
 */
export async function measureSharedSuite(
  scratch: string,
  options: Pick<SuiteBenchOptions, 'size' | 'rounds'> & { pools?: readonly SharedPool[] },
  log: (text: string) => void,
): Promise<SharedSuiteFigures> {
  const { size, rounds } = options
  const cassettes = join(scratch, 'cassettes')
  const pools: SharedSuiteFigures['pools'] = {}
  for (const pool of options.pools ?? SHARED_POOLS) {
    const runs = new Map<SuiteVariant, SuiteRun[]>(VARIANTS.map((variant) => [variant, []]))
    for (let r = 0; r < rounds; r++) {
      log(
        `shared workers (${pool}), ${size.files} files x ${size.tests} tests, round ${r + 1} of ${rounds}`,
      )
      const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length] as SuiteVariant)
      for (const variant of order) {
        const run = await runSuiteProject(
          variantDir(scratch, size, variant),
          cassettes,
          size.files * size.tests,
          // The setup `rubricate init --fast` writes: shared workers, failures annotated.
          { BENCH_ANNOTATIONS: 'failures' },
          true,
          ['--no-isolate', `--pool=${pool}`],
        )
        runs.get(variant)?.push(run)
      }
    }
    pools[pool] = summarise(runs) as Record<SuiteVariant, VariantFigures>
  }
  return { size, rounds, pools }
}

/**
 * Write the suites and record their cassettes under `scratch` without measuring the isolated
 * runs: what {@link measureSharedSuite} needs on its own (`--shared-only`).
 */
export async function prepareSuite(
  scratch: string,
  options: Pick<SuiteBenchOptions, 'size' | 'dist'>,
): Promise<number> {
  await installRubricate(scratch, options.dist)
  await writeSuite(scratch, options.size)
  return recordSuite(scratch, options.size, join(scratch, 'cassettes'))
}

function summarise(
  runs: Map<SuiteVariant, SuiteRun[]>,
): Partial<Record<SuiteVariant, VariantFigures>> {
  const plain = runs.get('plain') ?? []
  const out: Partial<Record<SuiteVariant, VariantFigures>> = {}
  for (const [variant, list] of runs) {
    out[variant] = {
      cpuMs: round(median(list.map((run) => run.cpuMs)), 0),
      wallMs: round(median(list.map((run) => run.wallMs)), 0),
      ratio: round(median(list.map((run, i) => run.cpuMs / (plain[i]?.cpuMs ?? Number.NaN))), 3),
      extraCpuMs: round(
        median(list.map((run, i) => run.cpuMs - (plain[i]?.cpuMs ?? Number.NaN))),
        0,
      ),
      ...workerFigures(list, plain),
      runs: list.map((run) => ({
        cpuMs: round(run.cpuMs, 0),
        wallMs: round(run.wallMs, 0),
        mainCpuMs: run.mainCpuMs,
        workerCpuMs: run.workerCpuMs,
      })),
    }
  }
  return out
}

// The per-process figures, when every run of the variant and of plain has them (worker-cpu.cjs).
function workerFigures(
  list: SuiteRun[],
  plain: SuiteRun[],
): Pick<VariantFigures, 'workerCpuMs' | 'extraWorkerCpuMs' | 'mainCpuMs'> {
  const workers = list.map((run) => run.workerCpuMs)
  const mains = list.map((run) => run.mainCpuMs)
  if (workers.some((ms) => ms === undefined) || mains.some((ms) => ms === undefined)) return {}
  const extra = list.map(
    (run, i) => (run.workerCpuMs as number) - (plain[i]?.workerCpuMs ?? Number.NaN),
  )
  return {
    workerCpuMs: round(median(workers as number[]), 1),
    extraWorkerCpuMs: round(median(extra), 1),
    mainCpuMs: round(median(mains as number[]), 0),
  }
}

function costFit(points: { x1: number; x2: number; y: number }[]): CostFit {
  const [perRunMs, perFileMs, perTestMs] = fitPlane(points)
  return {
    perRunMs: round(perRunMs ?? Number.NaN, 0),
    perFileMs: round(perFileMs ?? Number.NaN, 1),
    perTestMs: round(perTestMs ?? Number.NaN, 2),
  }
}

/** How many files of `size` use rubricate in `variant`. */
export function rubricFiles(variant: SuiteVariant, size: SuiteSize): number {
  let count = 0
  for (let index = 0; index < size.files; index++) if (isRubricFile(variant, index)) count++
  return count
}
