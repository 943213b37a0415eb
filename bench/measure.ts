// Small helpers shared by the benchmarks: medians, rounding, timing a child process.
import { spawn } from 'node:child_process'

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

/** What a finished child process wrote, and how long it ran. */
export interface ChildRun {
  exitCode: number | null
  stdout: string
  stderr: string
  wallMs: number
}

/**
 * Run a command to its end and time it from spawn to exit. Rejects after `timeoutMs` (its whole
 * process group is killed), so a hung benchmark cannot keep `npm run bench` running.
 */
export async function runChild(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number | undefined },
): Promise<ChildRun> {
  const started = performance.now()
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const timeoutMs = options.timeoutMs ?? 180_000
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
  }, timeoutMs)
  const exitCode = await new Promise<number | null>((done, fail) => {
    child.on('error', fail)
    child.on('close', (code) => done(code))
  }).finally(() => clearTimeout(timer))
  const wallMs = performance.now() - started
  if (timedOut) {
    throw new Error(
      `${command} ${args.join(' ')} did not finish within ${timeoutMs} ms.\n${stderr}`,
    )
  }
  return { exitCode, stdout, stderr, wallMs }
}
