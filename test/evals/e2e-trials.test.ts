// End to end: `trials: k` runs a row's task k times; each trial's model calls are recorded under a
// key of their own, and a replay gives each trial the answer it got when recorded, offline.
import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { copyFixture, removeCopy, repoRoot, runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let answers: string[] = []
let copy = ''

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: () => answers.shift() ?? 'no answer left' })
  copy = await copyFixture('evals')
})

afterAll(async () => {
  await server.close()
  await removeCopy(copy)
})

async function entries(): Promise<{ trial?: number; answer: string }[]> {
  const dir = join(copy, '__cassettes__')
  const out: { trial?: number; answer: string }[] = []
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith('.json')) continue
    const entry = JSON.parse(await readFile(join(dir, file), 'utf8'))
    out.push({ trial: entry.request.trial, answer: entry.response.json.choices[0].message.content })
  }
  return out.sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0))
}

test('each trial of a row is recorded apart, and a replay gives every trial its own answer', async () => {
  // The same request three times, three different answers: one lucky trial must not decide.
  answers = ['Paris', 'Lyon', 'Paris']
  const recorded = await runVitest(copy, ['trials.test.ts'], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'auto' },
  })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(server.requests).toHaveLength(3)
  expect(await entries()).toEqual([
    { trial: 1, answer: 'Paris' },
    { trial: 2, answer: 'Lyon' },
    { trial: 3, answer: 'Paris' },
  ])
  const rowLines = [
    '     ✓ What is the capital of France?',
    '       ✓ trials 2 of 3 passed (✓ ✗ ✓), needs 60%',
    '       ✓ scorer "exactMatch": score 1, threshold 1',
    '       ✗ scorer "exactMatch": score 0, threshold 1',
    '       ✓ scorer "exactMatch": score 1, threshold 1',
  ].join('\n')
  expect(recorded.stdout).toContain(rowLines)
  expect(recorded.stdout).toContain(
    '       Eval  "capitals" 1 of 1 row passed (100%) over 3 trials each · gate 100% ✓ met · mean: exactMatch 0.67',
  )

  // Replayed in CI with nothing left to answer: every trial is served from its own entry.
  const replayed = await runVitest(copy, ['trials.test.ts'], {
    ci: true,
    env: { FAKE_OPENAI_URL: server.baseURL },
  })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(server.requests).toHaveLength(3)
  expect(replayed.stdout).toContain(rowLines)

  // `cassettes verify` recomputes each key with its trial.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'dist/cli.js'), 'cassettes', 'verify'],
    { cwd: copy },
  )
  expect(stdout).toContain('3 entries in __cassettes__/ verified')
}, 120_000)

test('a row passes only when enough of its trials pass', async () => {
  answers = ['Lyon', 'Paris', 'Lyon', 'Lyon', 'Paris', 'Lyon']
  const run = await runVitest(copy, ['trials.test.ts'], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' },
  })
  expect(run.exitCode).toBe(1)
  expect(run.stdout).toContain('       ✗ trials 1 of 3 passed (✗ ✓ ✗), needs 60%')
  expect(run.stderr).toContain(
    "[rubricate] The row passed 1 of 3 trials, under its trial pass rate of 60%. Each failing trial is listed above; the first one's failure follows.",
  )
  expect(run.stderr).toContain('Scorer "exactMatch" scored 0; expected at least 1.')
}, 120_000)
