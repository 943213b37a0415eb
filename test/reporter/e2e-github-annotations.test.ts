// End to end on GitHub Actions: an unmet required criterion is an `::error` workflow command on
// the assertion's line, naming the criterion and the reason, as Vitest's github-actions reporter
// writes its own.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { fixturesDir, runVitest } from '../support/run-vitest'

test('on GitHub Actions an unmet required criterion is an error annotation on the assertion line', async () => {
  const file = join(fixturesDir, 'reporter-matchers/support.test.ts')
  const source = readFileSync(file, 'utf8').split('\n')
  const run = await runVitest('reporter-matchers', ['--reporter=default'], {
    ci: true,
    env: { GITHUB_ACTIONS: 'true' },
  })
  expect(run.exitCode).toBe(1)
  const commands = run.raw.stdout.split('\n').filter((line) => line.startsWith('::error '))
  const ours = commands.filter((line) => line.includes('unmet "'))
  expect(ours).toHaveLength(1)
  const match = /^::error file=(.+?),line=(\d+),column=(\d+),title=(.+?)::(.*)$/.exec(ours[0] ?? '')
  expect(match, ours[0]).not.toBeNull()
  const [, path, line, , title, message] = match!
  expect(path).toBe(file)
  expect(title).toBe('escalates an angry customer%3A unmet "Mentions sorry"')
  expect(message).toBe('Never says "sorry".')
  // The line holds the assertion (the `expect(...)` that failed).
  expect(source[Number(line) - 1]).toMatch(/expect\(/)
  // Without GitHub Actions, nothing of the kind is printed.
  const local = await runVitest('reporter-matchers', ['--reporter=default'], { ci: true })
  expect(local.raw.stdout).not.toContain('::error ')
}, 120_000)
