// Runs Vitest on test/fixtures/matchers-esm, an ESM project whose vitest.config.ts uses
// rubricate/plugin, with hand-written scorers (no judge): the matchers, the setup file and the
// plugin as a user meets them, in every pool.
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { RubricateRecord } from '../../src/records/records'
import { failureBlock } from '../support/failure-block'
import { runVitest } from '../support/run-vitest'

interface JsonReport {
  testResults: {
    name: string
    assertionResults: { title: string; status: string; meta: { rubricate?: RubricateRecord[] } }[]
  }[]
}

async function runFixture(args: string[] = []) {
  const output = join(tmpdir(), `rubricate-fixture-esm-${process.pid}-${Math.random()}.json`)
  const run = await runVitest('matchers-esm', [
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
    ...args,
  ])
  const report = JSON.parse(await readFile(output, 'utf8')) as JsonReport
  await rm(output, { force: true })
  // title -> [test status, record statuses]
  const results: Record<string, [string, string[]]> = {}
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      results[test.title] = [test.status, (test.meta.rubricate ?? []).map((r) => r.status)]
    }
  }
  return { run, report, results }
}

// What every pool must produce: each test's outcome, and the status of each record it holds.
const expected: Record<string, [string, string[]]> = {
  'passes a satisfied rubric': ['passed', ['pass']],
  'fails an unmet rubric': ['failed', ['fail']],
  '.not passes an unmet rubric': ['passed', ['pass']],
  '.not fails a satisfied rubric': ['failed', ['fail']],
  'a scorer error fails toSatisfyRubric': ['failed', ['error']],
  'a scorer error fails .not.toSatisfyRubric': ['failed', ['error']],
  'toPassScorer passes at the threshold': ['passed', ['pass']],
  'toPassScorer fails below the threshold': ['failed', ['fail']],
  'a Promise as the value is a usage error': ['failed', ['error']],
  '.resolves judges what the Promise resolves to': ['passed', ['pass']],
  'a test timeout set in the config is kept': ['passed', []],
  "rubricate's setup file runs before the user's": ['passed', []],
  'an unawaited matcher fails its test': ['failed', ['error']],
  'an unawaited passing matcher fails its test too': ['failed', ['error']],
  'a test that times out is not reported as unawaited': ['failed', []],
  'a later test is not blamed': ['passed', []],
  'expect.soft collects every failing rubric and keeps going': ['failed', ['fail', 'fail', 'pass']],
  'slow pass with the context expect': ['passed', ['pass']],
  'fast fail with the context expect': ['failed', ['fail']],
  'slow fail with the global expect': ['failed', ['fail']],
  'fast pass with the global expect': ['passed', ['pass']],
  'a loop lands in the test record once, with every iteration': ['passed', ['pass']],
}

test('the default forks pool: verdicts, .not, errors both ways, the unawaited guard, soft and concurrent tests', async () => {
  const { run, results, report } = await runFixture()
  expect(results).toEqual(expected)
  expect(run.exitCode).toBe(1)
  expect(run.stdout).toContain('Tests  12 failed | 10 passed (22)')
  expect(run.stderr).not.toContain('Unhandled')

  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > fails an unmet rubric'),
  ).toBe(`Error: expect(output).toSatisfyRubric(criteria)

Rubric not satisfied: 1 of 2 required criteria unmet.

  ✓ [required] Mentions refund
      → Says "refund".
  ✗ [required] Mentions sorry
      → Never says "sorry".
  ○ [optional] Mentions days
      → Never says "days".

Output: "your refund is on its way"`)
  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > .not fails a satisfied rubric'),
  ).toBe(`Error: expect(output).not.toSatisfyRubric(criteria)

Expected at least one required criterion to be unmet, but every required criterion is met.

  ✓ [required] Mentions refund
      → Says "refund".
  ✓ [required] Mentions sorry
      → Says "sorry".
  ✓ [optional] Mentions days
      → Says "days".

Output: "sorry, refund in 3 days"`)
  for (const name of ['toSatisfyRubric', '.not.toSatisfyRubric']) {
    expect(failureBlock(run.stderr, `verdicts.test.ts > a scorer error fails ${name}`)).toBe(
      `Error: expect(output)${name.startsWith('.not') ? '.not' : ''}.toSatisfyRubric(criteria)

This assertion could not be decided, so it fails with or without .not (Error):
the scorer exploded`,
    )
  }
  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > toPassScorer fails below the threshold'),
  ).toBe(`Error: expect(output).toPassScorer(scorer)

Scorer "length" scored 0.25; expected at least 0.5.
Reason: 5 characters

Output: "short"`)
  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > a Promise as the value is a usage error'),
  ).toBe(`UsageError: expect(output).toSatisfyRubric(criteria)

This assertion could not be decided, so it fails with or without .not (RUBRICATE_USAGE):
[rubricate] The value under test is a Promise, so there is nothing to judge yet. Await it first (\`expect(await agent(input))\`), or use \`.resolves\` (\`await expect(agent(input)).resolves.toSatisfyRubric(...)\`).
See https://rubricate.github.io/rubricate/errors/usage`)
  expect(failureBlock(run.stderr, 'guard.test.ts > an unawaited matcher fails its test')).toBe(
    "Error: [rubricate] expect(...).toSatisfyRubric() was not awaited, so the test finished before the judge's verdict. Write `await expect(output).toSatisfyRubric(...)`. The lint rule vitest/valid-expect with { alwaysAwait: true, asyncMatchers: ['toSatisfyRubric', 'toPassScorer'] } catches this.",
  )
  expect(
    failureBlock(run.stderr, 'guard.test.ts > a test that times out is not reported as unawaited'),
  ).toBe(`Error: Test timed out in [...]ms.
If this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".`)
  expect(
    failureBlock(run.stderr, 'concurrent.test.ts > slow fail with the global expect'),
  ).toContain('✗ [required] Mentions days')
  expect(
    failureBlock(run.stderr, 'concurrent.test.ts > fast fail with the context expect'),
  ).toContain('✗ [required] Mentions sorry')

  // Concurrent tests hold their own verdicts, whichever expect they used.
  const records = Object.fromEntries(
    report.testResults
      .flatMap((file) => file.assertionResults)
      .map((test) => [test.title, test.meta.rubricate ?? []]),
  )
  expect(records['slow fail with the global expect']?.[0]?.verdicts?.[0]?.criterion).toBe(
    'Mentions days',
  )
  expect(records['fast pass with the global expect']?.[0]?.verdicts?.[0]?.criterion).toBe(
    'Mentions sorry',
  )
  const [loop] = records['a loop lands in the test record once, with every iteration'] ?? []
  expect(loop).toMatchObject({ kind: 'loop', status: 'pass' })
  expect(loop?.iterations?.map((i) => [i.iteration, i.complete, i.outputPreview])).toEqual([
    [1, false, 'draft'],
    [2, true, 'refund issued'],
  ])
  expect(records['an unawaited matcher fails its test']?.[0]?.error?.code).toBe('RUBRICATE_USAGE')
})

test('the threads pool gives the same results', async () => {
  const { results, run } = await runFixture(['--pool=threads'])
  expect(results).toEqual(expected)
  expect(run.stderr).not.toContain('Unhandled')
})

test('isolate: false (one worker, every file in it) gives the same results', async () => {
  const { results, run } = await runFixture(['--no-isolate', '--maxWorkers=1'])
  expect(results).toEqual(expected)
  expect(run.stderr).not.toContain('Unhandled')
})
