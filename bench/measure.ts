// Small helpers shared by the benchmarks: medians, rounding, timing a child process.

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
