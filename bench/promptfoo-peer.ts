// A peer row for the suite benchmark (issue 37): promptfoo's cached run of the same 200 cases (the
// same outputs, the same three-criterion rubric as an `llm-rubric` assertion), paired with the
// plain suite under Vitest's defaults. promptfoo runs the cases in one process, without Vitest; its
// second run answers the grader from its disk cache, as rubricate's replay answers from cassettes.
// promptfoo is installed from the npm registry into bench/.tmp/peers (kept between runs); when it
// does not install within the time given, the row says so and the rest of the benchmark goes on.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startFakeOpenAI } from '../src/testing'
import { reapedChildrenCpuMs, round, runChild } from './measure'
import type { SuiteSize } from './suite-project'

/** The version the table measured. */
export const PROMPTFOO_VERSION = '0.121'
const INSTALL_TIMEOUT_MS = 300_000
const run = promisify(execFile)

/** promptfoo's cached run of the suite's cases: its CPU per round, or why it was not measured. */
export type PromptfooPeerFigures =
  | { measured: true; version: string; cpuMs: number[]; wallMs: number[] }
  | { measured: false; reason: string }

/**
 * Install promptfoo (once), write the suite's cases as a promptfoo config, run it once against a
 * loopback judge to fill its cache, then `rounds` times from the cache alone, each run reading the
 * CPU of its whole process tree. `between(r)` runs after each cached run: the plain suite that the
 * caller pairs it with.
 */
export async function measurePromptfooPeer(
  scratch: string,
  size: SuiteSize,
  rounds: number,
  between: (round: number) => Promise<void>,
  log: (text: string) => void,
): Promise<PromptfooPeerFigures> {
  const peers = join(import.meta.dirname, '.tmp', 'peers', 'promptfoo')
  const bin = join(peers, 'node_modules', '.bin', 'promptfoo')
  if (!existsSync(bin)) {
    log(`installing promptfoo@${PROMPTFOO_VERSION} for the peer row (once; kept in ${peers})`)
    try {
      await mkdir(peers, { recursive: true })
      await writeFile(join(peers, 'package.json'), '{ "private": true }\n')
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          '--no-save',
          `promptfoo@${PROMPTFOO_VERSION}`,
        ],
        { cwd: peers, timeout: INSTALL_TIMEOUT_MS },
      )
    } catch (error) {
      await rm(peers, { recursive: true, force: true })
      return {
        measured: false,
        reason: `promptfoo@${PROMPTFOO_VERSION} did not install within ${INSTALL_TIMEOUT_MS / 1000} s: ${String((error as Error).message).split('\n')[0]}`,
      }
    }
  }
  const dir = join(scratch, 'promptfoo')
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const env = promptfooEnv(dir)
  const judge = await startFakeOpenAI({
    reply: () => ({ reason: 'Mentions the refund and says sorry.', score: 1, pass: true }),
  })
  try {
    await writeFile(join(dir, 'promptfooconfig.json'), promptfooConfig(size, judge.baseURL))
    await evalOnce(bin, dir, env, size)
  } finally {
    await judge.close()
  }
  const cpuMs: number[] = []
  const wallMs: number[] = []
  for (let r = 0; r < rounds; r++) {
    const before = reapedChildrenCpuMs()
    const started = performance.now()
    await evalOnce(bin, dir, env, size)
    wallMs.push(round(performance.now() - started, 0))
    cpuMs.push(round(reapedChildrenCpuMs() - before, 0))
    await between(r)
  }
  const version = (await run(bin, ['--version'], { cwd: dir, env })).stdout.trim()
  return { measured: true, version, cpuMs, wallMs }
}

// promptfoo's own state in the scratch folder, and nothing sent anywhere: no telemetry, no update
// check, no remote generation. Every connection outside loopback is refused besides.
function promptfooEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    NO_COLOR: '1',
    PROMPTFOO_CONFIG_DIR: join(dir, 'config'),
    PROMPTFOO_CACHE_PATH: join(dir, 'cache'),
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_REMOTE_GENERATION: 'true',
    NODE_OPTIONS: `--import=${new URL('../test/support/loopback-guard.mjs', import.meta.url).href}`,
  }
}

// The suite's cases: the echo provider returns each test's output as written, and `llm-rubric`
// has the loopback judge grade it against the suite's rubric.
function promptfooConfig(size: SuiteSize, baseURL: string): string {
  const rubric = '- Mentions refund\n- Mentions sorry\n- (optional) Mentions days'
  const tests = []
  for (let file = 0; file < size.files; file++) {
    for (let test = 0; test < size.tests; test++) {
      tests.push({
        vars: { output: `sorry, the refund for order ${file}-${test} arrives in 3 days` },
        assert: [{ type: 'llm-rubric', value: rubric }],
      })
    }
  }
  return JSON.stringify({
    prompts: ['{{output}}'],
    providers: ['echo'],
    defaultTest: {
      options: {
        provider: {
          id: 'openai:chat:gpt-4.1-mini',
          config: { apiBaseUrl: baseURL, apiKey: 'sk-bench-0000' },
        },
      },
    },
    tests,
  })
}

async function evalOnce(
  bin: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  size: SuiteSize,
): Promise<void> {
  const expected = size.files * size.tests
  const result = await runChild(
    bin,
    ['eval', '-c', 'promptfooconfig.json', '--no-progress-bar', '--no-table'],
    { cwd: dir, env, timeoutMs: 600_000 },
  )
  if (result.exitCode !== 0 || !result.stdout.includes(`${expected} passed`)) {
    throw new Error(
      `promptfoo's run of the suite's ${expected} cases did not pass them all (exit code ${result.exitCode}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
    )
  }
}
