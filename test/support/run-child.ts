// Run a command to its end in its own process group, collecting its output: the end-to-end tests,
// the examples test and the benchmarks all start child processes this way.
import { spawn } from 'node:child_process'

/** What a finished child process wrote, and how long it ran. */
export interface ChildRun {
  exitCode: number | null
  stdout: string
  stderr: string
  wallMs: number
}

/**
 * Run a command to its end and time it from spawn to exit. Rejects after `timeoutMs` (default
 * 180 s; its whole process group is killed, workers included), so a hung child cannot keep a test
 * run or `npm run bench` running. The rejection holds what the child wrote.
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
      `${command} ${args.join(' ')} in ${options.cwd} did not finish within ${timeoutMs} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`,
    )
  }
  return { exitCode, stdout, stderr, wallMs }
}
