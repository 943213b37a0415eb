// End to end with the real matchers, setup file and plugin (hand-written scorers, no judge): the
// reporter prints what `toSatisfyRubric`, `toPassScorer` and `runUntilComplete` recorded.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runVitest } from '../support/run-vitest'

test('verdicts, scorer, loop and summary (with plugin prices) of records the matchers wrote', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-matchers-'))
  const run = await runVitest(
    'reporter-matchers',
    ['--reporter=default', '--reporter=junit', `--outputFile.junit=${join(dir, 'junit.xml')}`],
    { ci: true },
  )
  expect(run.exitCode).toBe(1)
  // JUnit's "report written" line lands before or after rubricate's summary: both reporters finish
  // with file I/O at the same time. Vitest lists every test of a failed file; rubricate's lines
  // follow, with the tests that hold its assertions.
  expect(run.stdout).toContain(`JUNIT report written to ${dir}/junit.xml\n`)
  expect(run.stdout.replace(`JUNIT report written to ${dir}/junit.xml\n`, '')).toBe(`
 RUN  v[version] <root>

 ❯ support.test.ts (4 tests | 1 failed) [...]ms
   ✓ answers a refund question [...]ms
   × escalates an angry customer [...]ms
   ✓ keeps it short [...]ms
   ✓ drafts until the reply mentions the refund [...]ms
   ✓ answers a refund question
     ✓ [required] Mentions refund
     ✓ [required] Mentions sorry
     ○ [optional] Mentions days: Never says "days".
   × escalates an angry customer
     ✓ [required] Mentions refund
     ✗ [required] Mentions sorry: Never says "sorry".
     ○ [optional] Mentions days: Never says "days".
   ✓ keeps it short
     ✓ scorer "length": score 0.5, threshold 0.5: 10 characters.
   ✓ drafts until the reply mentions the refund
     ✓ loop: complete after 2 iterations
       1. ✗ keywords 0: unmet: Mentions refund
       2. ✓ keywords 1
       ✓ [required] Mentions refund

 Test Files  1 failed (1)
      Tests  1 failed | 3 passed (4)
   Start at  [time]
   Duration  [...]ms (...)

 Assertions  3 assertions (2 rubric, 1 scorer): 2 passed, 1 failed, 0 errored · 1 loop: 1 complete, 0 incomplete, 0 errored · 7 criteria: 4 met, 1 required unmet, 2 optional unmet
      Judge  4 calls: 0 replayed, 4 live · tokens 4,800 live, 0 replayed · cost $0.03 + unknown for "local-llama" (no price: add it to the prices option of the rubricate plugin)

`)
  expect(run.stderr).toContain('FAIL  support.test.ts > escalates an angry customer')
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8')
  expect(junit).toContain(
    '<property name="rubricate" value="met [required] Mentions refund\r\n     unmet [required] Mentions sorry: Never says &quot;sorry&quot;.\r\n     unmet [optional] Mentions days: Never says &quot;days&quot;.">',
  )
  expect(junit).toContain(
    '<property name="rubricate" value="loop complete after 2 iterations\r\n     met [required] Mentions refund">',
  )
  await rm(dir, { recursive: true, force: true })
})
