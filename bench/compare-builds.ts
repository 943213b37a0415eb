// Two builds of rubricate on the same generated suite, paired round by round: what a change to the
// code does to a whole suite (ARCHITECTURE.md §10). Copy dist/ aside before the change, build
// after it, then:
//
//   node bench/run.mjs compare-builds '{"a":"/tmp/dist-before","b":"dist","variant":"rubric"}'
//
// Prints the medians of the CPU of each build's runs and of the per-round ratios b / a, with
// their spread, so that a difference can be told from noise.
import { rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { median, quantile, round } from './measure'
import {
  installRubricate,
  recordSuite,
  runSuiteProject,
  type SuiteVariant,
  variantDir,
  writeSuite,
} from './suite-project'

/** Options of {@link benchCompareBuilds}. */
export interface CompareBuildsOptions {
  /** The first build's folder (a copy of dist/). */
  a: string
  /** The second build's folder. */
  b: string
  /** The variant of the suite measured. Default `'rubric'`. */
  variant?: SuiteVariant | undefined
  /** Default 20. */
  files?: number | undefined
  /** Tests per file. Default 10. */
  tests?: number | undefined
  /** Paired rounds. Default 5. */
  rounds?: number | undefined
}

/** The comparison's figures (CPU of whole runs, ms). */
export interface CompareBuildsFigures {
  variant: SuiteVariant
  size: { files: number; tests: number }
  aCpuMs: number
  bCpuMs: number
  /** Median of the per-round ratios b / a, and their interquartile range. */
  ratio: number
  ratioSpread: [number, number]
  runs: { aCpuMs: number; bCpuMs: number }[]
}

/** Run the suite's `variant` with build `a` and build `b`, alternated, `rounds` times. */
export async function benchCompareBuilds(
  options: CompareBuildsOptions,
): Promise<CompareBuildsFigures> {
  const variant = options.variant ?? 'rubric'
  const size = { files: options.files ?? 20, tests: options.tests ?? 10 }
  const rounds = options.rounds ?? 5
  const scratch = join(import.meta.dirname, '.tmp', `compare-${process.pid}`)
  const cassettes = join(scratch, 'cassettes')
  const roots = { a: join(scratch, 'a'), b: join(scratch, 'b') }
  try {
    for (const key of ['a', 'b'] as const) {
      await installRubricate(roots[key], resolve(options[key]))
      await writeSuite(roots[key], size)
    }
    await recordSuite(roots.a, size, cassettes)
    const runs: CompareBuildsFigures['runs'] = []
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)
      const cpu = { a: 0, b: 0 }
      for (const key of order) {
        const run = await runSuiteProject(
          variantDir(roots[key], size, variant),
          cassettes,
          size.files * size.tests,
        )
        cpu[key] = run.cpuMs
      }
      runs.push({ aCpuMs: round(cpu.a, 0), bCpuMs: round(cpu.b, 0) })
      process.stderr.write(`[compare-builds] round ${r + 1}: a ${cpu.a} ms, b ${cpu.b} ms\n`)
    }
    const ratios = runs.map((run) => run.bCpuMs / run.aCpuMs)
    return {
      variant,
      size,
      aCpuMs: round(median(runs.map((run) => run.aCpuMs)), 0),
      bCpuMs: round(median(runs.map((run) => run.bCpuMs)), 0),
      ratio: round(median(ratios), 3),
      ratioSpread: [round(quantile(ratios, 0.25), 3), round(quantile(ratios, 0.75), 3)],
      runs,
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
