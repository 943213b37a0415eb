// The benchmark harness (`npm run bench`) in its tiny configuration, so that a broken benchmark is
// noticed here. Its figures are not asserted: they mean nothing at this size, and this machine is
// shared.
import { execFile } from 'node:child_process'
import { readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { repoRoot } from '../support/run-vitest'

const execFileAsync = promisify(execFile)
const scratch = join(repoRoot, 'bench', '.tmp')

test('the benchmark harness runs end to end in its quick configuration and writes every figure', async () => {
  const out = join(tmpdir(), `rubricate-bench-${process.pid}.json`)
  const before = await readdir(scratch).catch(() => [])
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      ['bench/run.mjs', '--quick', '--out', out],
      { cwd: repoRoot, timeout: 240_000 },
    )
    expect(stdout).toContain('rubricate benchmarks (ARCHITECTURE.md §10)')
    const results = JSON.parse(await readFile(out, 'utf8'))
    expect(results).toMatchObject({
      quick: true,
      command: 'node bench/run.mjs --quick',
      machine: { node: process.version, cores: expect.any(Number), cpu: expect.any(String) },
    })
    expect(results.figures.map((figure: { id: string }) => figure.id)).toEqual([
      'suite-plugin',
      'suite-rubric',
      'suite-mix',
      'suite-worker-file',
      'suite-per-file',
      'suite-per-test',
      'shared-threads-plugin',
      'shared-threads-rubric',
      'shared-threads-mix',
      'replay-overhead',
      'replay-1000',
      'live-overhead',
      'store-startup',
      'store-stats',
      'store-verify',
      'concurrency',
      'judge-replay-call',
      'scorer-replay',
      'msw-replay-call',
    ])
    for (const figure of results.figures) {
      expect(Number.isFinite(figure.value), figure.id).toBe(true)
      expect(figure.pass === null || typeof figure.pass === 'boolean', figure.id).toBe(true)
      expect(stdout).toContain(figure.label)
    }
    // The suite benchmark ran every variant of its four sizes, each run with the CPU of its
    // process tree (a Vitest run cannot cost nothing), and held its three ratios to their targets.
    const suite = results.figures.find((figure: { id: string }) => figure.id === 'suite-per-file')
    expect(suite.data.sizes.map((s: { size: unknown }) => s.size)).toEqual([
      { files: 2, tests: 2 },
      { files: 1, tests: 2 },
      { files: 2, tests: 4 },
      { files: 1, tests: 4 },
    ])
    for (const { variants } of suite.data.sizes) {
      for (const variant of Object.values(variants) as {
        runs: { cpuMs: number; mainCpuMs: number; workerCpuMs: number }[]
      }[]) {
        expect(variant.runs.length).toBe(1)
        expect(variant.runs[0]?.cpuMs).toBeGreaterThan(100)
        // Each process reported its own CPU (bench/worker-cpu.cjs): the main process and the
        // workers, whose CPU is part of the tree's.
        const run = variant.runs[0]!
        expect(run.mainCpuMs).toBeGreaterThan(10)
        expect(run.workerCpuMs).toBeGreaterThan(10)
        expect(run.mainCpuMs + run.workerCpuMs).toBeLessThan(run.cpuMs + 50)
      }
    }
    expect(results.figures.slice(0, 3).map((figure: { target: string }) => figure.target)).toEqual([
      '<= 1.05x',
      '<= 1.3x',
      '<= 1.1x',
    ])
    // The generated project and its cassettes are removed after the run.
    expect(await readdir(scratch).catch(() => [])).toEqual(before)
  } finally {
    await rm(out, { force: true })
  }
}, 300_000)
