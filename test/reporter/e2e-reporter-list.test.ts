// End to end: which reporter the plugin installs, and where its output goes, for the reporter
// lists users run with: default on CI and on a terminal, dot, json, the agent reporter, projects.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { expect, test } from 'vitest'
import {
  copyFixture,
  fixturesDir,
  removeCopy,
  repoRoot,
  runVitest,
  vitestMajor,
} from '../support/run-vitest'

const SUMMARY = ` Assertions  1 assertion: 1 passed, 0 failed, 0 errored · 2 criteria: 2 met, 0 required unmet, 0 optional unmet
      Judge  1 call: 1 replayed, 0 live · tokens 0 live, 1,000 replayed · cost $0.00`

test('on CI (no terminal), passing tests are listed only when they hold rubricate assertions, with their suites', async () => {
  const run = await runVitest('reporter', ['suite.test.ts'], { ci: true })
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain(` ✓ suite.test.ts (2 tests) [...]ms
   ✓ support
     ✓ refunds
       ✓ answers a refund question
         ✓ [required] Acknowledges the double charge

 Test Files  1 passed (1)
`)
  expect(run.stdout).toMatch(
    /Duration {2}\[\.\.\.\]ms \(\.\.\.\)\n\n Assertions {2}1 assertion: 1 passed, 0 failed, 0 errored · 1 criterion: 1 met, 0 required unmet, 0 optional unmet\n/,
  )
  expect(run.stdout).not.toContain('says hello')
})

test('on a terminal running several files, the verdicts are listed as well', () => {
  // `script` gives Vitest a pseudo-terminal, so it takes its terminal code paths (live summary,
  // passing tests hidden when several files run).
  const script = spawnSync('script', ['--version'])
  expect(script.error, 'the "script" command (util-linux) is needed for this test').toBeUndefined()
  const vitest = `${process.execPath} ${repoRoot}/node_modules/vitest/vitest.mjs run rubric-pass.test.ts optional-unmet.test.ts`
  const output = execFileSync('script', ['-qec', vitest, '/dev/null'], {
    cwd: `${fixturesDir}/reporter`,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', NO_COLOR: '1' },
    encoding: 'utf8',
  })
  const text = stripVTControlCharacters(output).replace(/\r\n/g, '\n')
  expect(text).toMatch(
    /✓ answers a refund question\n {5}✓ \[required\] Acknowledges the double charge\n {5}✓ \[required\] Explains how the refund will be processed\n/,
  )
  expect(text).toMatch(
    /✓ answers a refund question\n {5}✓ \[required\] Acknowledges the double charge\n {5}○ \[optional\] Gives a timeframe for the refund: No timeframe is mentioned\.\n/,
  )
  expect(text).not.toContain('greets the customer')
  expect(text).toContain(' Assertions  2 assertions: 2 passed, 0 failed, 0 errored')
})

test('with --reporter=dot, the summary goes to stderr and no verdict lines are printed', async () => {
  const run = await runVitest('reporter', ['rubric-pass.test.ts', '--reporter=dot'], { ci: true })
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain('\n··\n')
  expect(run.stdout).not.toContain('[required]')
  expect(run.stderr).toBe(`\n${SUMMARY}\n\n`)
})

test('with --reporter=json, the JSON report (stdout in Vitest 4, a file in Vitest 5) holds the records in meta', async () => {
  const dir = await copyFixture('reporter')
  const { run, report } = await runVitest(dir, ['rubric-pass.test.ts', '--reporter=json'], {
    ci: true,
  })
    // Vitest 5 writes the report of a reporter without an outputFile to .vitest/<name>/.
    .then(async (run) => ({
      run,
      report:
        vitestMajor >= 5
          ? await readFile(join(dir, '.vitest/json/output.json'), 'utf8')
          : run.raw.stdout,
    }))
    .finally(() => removeCopy(dir))
  expect(run.exitCode).toBe(0)
  const json = JSON.parse(report)
  expect(json.numPassedTests).toBe(2)
  const refund = json.testResults[0].assertionResults.find(
    (a: { title: string }) => a.title === 'answers a refund question',
  )
  expect(refund.meta.rubricate[0].verdicts).toHaveLength(2)
  expect(run.stdout).not.toContain('Assertions  1 assertion')
  expect(run.stderr).toBe(`\n${SUMMARY}\n\n`)
})

test('in an AI-agent environment (Vitest 4 picks its agent reporter, Vitest 5 its minimal one), the summary goes to stderr', async () => {
  const run = await runVitest('reporter', ['rubric-pass.test.ts'], { env: { CLAUDECODE: '1' } })
  expect(run.exitCode).toBe(0)
  expect(run.stdout).not.toContain('[required]')
  expect(run.stderr).toBe(`\n${SUMMARY}\n\n`)
})

test('with reporters: [] (no reporter in Vitest 5, the default one in Vitest 4), the summary is still printed', async () => {
  const run = await runVitest(
    'reporter',
    ['--config', 'vitest.no-reporters.config.ts', 'rubric-pass.test.ts'],
    { ci: true },
  )
  expect(run.exitCode).toBe(0)
  if (vitestMajor >= 5) {
    // Nothing replaces: the summary-only reporter is added, on stderr.
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`\n${SUMMARY}\n\n`)
  } else {
    expect(run.stdout).toContain(' ✓ [required] Acknowledges the double charge\n')
    expect(run.stdout).toContain(SUMMARY)
    expect(run.stderr).toBe('')
  }
})

test('with several projects, one reporter is installed: one banner, one summary', async () => {
  const run = await runVitest('projects', [])
  expect(run.exitCode).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout.match(/ RUN /g)).toHaveLength(1)
  expect(run.stdout.match(/Assertions {2}/g)).toHaveLength(1)
  expect(run.stdout).toContain(
    ' ✓ |first| first.test.ts (1 test) [...]ms\n   ✓ first answer\n     ✓ [required] Is first\n',
  )
  expect(run.stdout).toContain(
    ' ✓ |second| second.test.ts (1 test) [...]ms\n   ✓ second answer\n     ✓ [required] Is second\n',
  )
  expect(run.stdout).toContain(' Assertions  2 assertions: 2 passed, 0 failed, 0 errored')
})

test('with --reporter=verbose, the verdicts show as annotations under each test', async () => {
  const run = await runVitest('reporter', ['rubric-pass.test.ts', '--reporter=verbose'], {
    ci: true,
  })
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain(` ✓ rubric-pass.test.ts > answers a refund question [...]ms

   ❯ rubric-pass.test.ts:5:9 rubricate
     ↳ met [required] Acknowledges the double charge
     met [required] Explains how the refund will be processed

 ✓ rubric-pass.test.ts > greets the customer [...]ms
`)
  expect(run.stderr).toBe(`\n${SUMMARY}\n\n`)
})
