// Small helpers shared by the benchmarks: medians, rounding, a line fit, timing a child process and
// reading its CPU time.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** The median of `values` (the mean of the middle two for an even count); `NaN` when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** The `q` quantile of `values` (0.25, 0.75...), interpolated between neighbours. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low)
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits = 3): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

export { type ChildRun, runChild } from '../test/support/run-child'

/**
 * The CPU time (user + system, ms) of the children this process has reaped so far, read from
 * Linux's `/proc/self/stat` (cutime + cstime). A child's figure includes the descendants it reaped
 * in turn, so the difference around one `vitest run` is the CPU of its whole process tree: the main
 * process and every worker. Throws on a system without `/proc`.
 */
export function reapedChildrenCpuMs(): number {
  let stat: string
  try {
    stat = readFileSync('/proc/self/stat', 'utf8')
  } catch (error) {
    throw new Error(
      'The suite benchmark reads the CPU time of finished child processes from /proc/self/stat, which this system does not have (it runs on Linux). Run it on Linux, or run one benchmark on its own: node bench/run.mjs <name>.',
      { cause: error },
    )
  }
  // The fields after the command name (which may hold spaces), from field 3 (state) on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[13]) + Number(fields[14])
  return (ticks * 1000) / clockTicksPerSecond()
}

let ticksPerSecond: number | undefined
// USER_HZ, as `getconf CLK_TCK` says; 100 on every Linux build in practice.
function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    } catch {
      ticksPerSecond = 100
    }
    if (!(ticksPerSecond > 0)) ticksPerSecond = 100
  }
  return ticksPerSecond
}

/**
 * The least-squares fit of `y = c0 + c1·x1 + c2·x2` over `points`: `[c0, c1, c2]`. Needs three
 * points that are not on one line in (x1, x2); returns NaNs otherwise.
 */
export function fitPlane(points: readonly { x1: number; x2: number; y: number }[]): number[] {
  // The normal equations (XᵀX) c = Xᵀy, solved by Cramer's rule.
  const rows = points.map((p) => [1, p.x1, p.x2])
  const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => sum(rows.map((r) => r[i]! * r[j]!))))
  const b = [0, 1, 2].map((i) => sum(rows.map((r, k) => r[i]! * points[k]!.y)))
  const det = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!)
  const d = det(a)
  if (Math.abs(d) < 1e-9) return [Number.NaN, Number.NaN, Number.NaN]
  return [0, 1, 2].map(
    (column) => det(a.map((row, i) => row.map((v, j) => (j === column ? b[i]! : v)))) / d,
  )
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
