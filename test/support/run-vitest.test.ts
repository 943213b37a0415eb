import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { copyFixture, normalise, removeCopy, repoRoot, runVitest } from './run-vitest'

const leaking = ['OPENAI_API_KEY', 'RUBRICATE_JUDGE', 'CLAUDECODE', 'GITHUB_ACTIONS', 'FORCE_COLOR']

afterEach(() => {
  for (const name of leaking) delete process.env[name]
})

test('runs a fixture project with none of the parent environment leaking in', async () => {
  for (const name of leaking) process.env[name] = 'sk-leak-1234567890'
  const run = await runVitest('harness', ['env.test.ts'])
  expect(run.stderr).toBe('')
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toBe(`
 RUN  v[version] <root>

 ✓ env.test.ts (1 test) [...]ms

 Test Files  1 passed (1)
      Tests  1 passed (1)
   Start at  [time]
   Duration  [...]ms (...)

`)
})

test('sets CI only when asked, and passes extra variables through', async () => {
  const run = await runVitest('harness', ['env.test.ts'], {
    ci: true,
    env: { FIXTURE_EXPECT_CI: 'true' },
  })
  expect(run.exitCode).toBe(0)
})

test('returns the exit code and stderr of a failing run', async () => {
  const run = await runVitest('harness', ['fail.test.ts'], { env: { FIXTURE_FAIL: '1' } })
  expect(run.exitCode).toBe(1)
  expect(run.stderr).toContain('FAIL  fail.test.ts > fails when asked to')
  expect(run.stdout).toContain('Tests  1 failed (1)')
})

test('normalise masks durations, clock times, paths and colours', () => {
  const text = `\u001b[32m ✓\u001b[39m ${repoRoot}/x.ts 12ms\n   ✓ slow test  1203ms\n Duration  1.25s (tests 3ms)  \n Start at  09:41:07\n`
  expect(normalise(text)).toBe(
    ' ✓ <repo>/x.ts [...]ms\n   ✓ slow test [...]ms\n Duration  [...]ms (...)\n Start at  [time]\n',
  )
})

test("normalise shows Vitest 5's duration breakdown and timeout error as Vitest 4's", () => {
  const text =
    ' Duration  1.25s (setup 92%, transform 4%, tests 2%)\nTestTimeoutError: Test timed out in 200ms.\n'
  expect(normalise(text)).toBe(' Duration  [...]ms (...)\nError: Test timed out in [...]ms.\n')
})

test('a fixture copy is a separate project that can be changed and removed', async () => {
  const dir = await copyFixture('harness')
  await writeFile(
    join(dir, 'extra.test.ts'),
    "import { test } from 'vitest'\ntest('extra', () => {})\n",
  )
  const run = await runVitest(dir, ['extra.test.ts'])
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain(' ✓ extra.test.ts (1 test) [...]ms')
  await removeCopy(dir)
  expect(existsSync(dir)).toBe(false)
})
