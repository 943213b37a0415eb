// End to end: Vitest runs the `reporter` fixture project (the rubricate plugin, tests that write the
// records the matchers write) and the terminal output is compared, durations masked.
import { expect, test } from 'vitest'
import { runVitest } from '../support/run-vitest'

const RUN = '\n RUN  v[version] <root>\n\n'
// Vitest's summary; rubricate's follows it.
const footer = (files: string, tests: string) => `
 Test Files  ${files}
      Tests  ${tests}
   Start at  [time]
   Duration  [...]ms (...)

`

test('a passing rubric lists its criteria under the test, then the run summary', async () => {
  const run = await runVitest('reporter', ['rubric-pass.test.ts'])
  expect(run.exitCode).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout).toBe(
    `${RUN} ✓ rubric-pass.test.ts (2 tests) [...]ms
   ✓ answers a refund question
     ✓ [required] Acknowledges the double charge
     ✓ [required] Explains how the refund will be processed
${footer('1 passed (1)', '2 passed (2)')} Assertions  1 assertion: 1 passed, 0 failed, 0 errored · 2 criteria: 2 met, 0 required unmet, 0 optional unmet
      Judge  1 call: 1 replayed, 0 live · tokens 0 live, 1,000 replayed · cost $0.00

`,
  )
})

test('a failing rubric shows the unmet criterion with its reasoning, and Vitest shows the annotations under the failure', async () => {
  const run = await runVitest('reporter', ['rubric-fail.test.ts'])
  expect(run.exitCode).toBe(1)
  expect(run.stdout).toBe(
    `${RUN} ❯ rubric-fail.test.ts (1 test | 1 failed) [...]ms
   × escalates an angry customer [...]ms
   × escalates an angry customer
     ✓ [required] Apologises
     ✗ [required] Offers a human agent: The reply never mentions a person to talk to.
${footer('1 failed (1)', '1 failed (1)')} Assertions  1 assertion: 0 passed, 1 failed, 0 errored · 2 criteria: 1 met, 1 required unmet, 0 optional unmet
      Judge  1 call: 1 replayed, 0 live · tokens 0 live, 1,000 replayed · cost $0.00

`,
  )
  // The verdicts are an annotation too (made with the test context's annotate(), at the assertion's
  // line, one per assertion with a line per criterion): Vitest's own reporter prints a failed
  // test's annotations under its error, each line of it under the first one's text.
  expect(run.stderr).toBe(`
⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  rubric-fail.test.ts > escalates an angry customer
Error: 1 required criterion unmet: Offers a human agent
 ❯ rubric-fail.test.ts:12:9
     10|     ]),
     11|   )
     12|   throw new Error('1 required criterion unmet: Offers a human agent')
       |         ^
     13| })
     14|

 ❯ rubric-fail.test.ts:5:9 rubricate
   ↳ met [required] Apologises
     unmet [required] Offers a human agent: The reply never mentions a person to talk to.

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

`)
})

test('an unmet optional criterion is shown with its reasoning and does not fail the test', async () => {
  const run = await runVitest('reporter', ['optional-unmet.test.ts'])
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toBe(
    `${RUN} ✓ optional-unmet.test.ts (1 test) [...]ms
   ✓ answers a refund question
     ✓ [required] Acknowledges the double charge
     ○ [optional] Gives a timeframe for the refund: No timeframe is mentioned.
${footer('1 passed (1)', '1 passed (1)')} Assertions  1 assertion: 1 passed, 0 failed, 0 errored · 2 criteria: 1 met, 0 required unmet, 1 optional unmet
      Judge  1 call: 1 replayed, 0 live · tokens 0 live, 1,000 replayed · cost $0.00

`,
  )
})

test('a judge error shows its code and message under the test and counts as errored', async () => {
  const run = await runVitest('reporter', ['judge-error.test.ts'])
  expect(run.exitCode).toBe(1)
  expect(run.stdout).toBe(
    `${RUN} ❯ judge-error.test.ts (1 test | 1 failed) [...]ms
   × judges an answer while the judge is down [...]ms
   × judges an answer while the judge is down
     ! RUBRICATE_JUDGE_REQUEST: The judge request failed: 503 Service Unavailable.
${footer('1 failed (1)', '1 failed (1)')} Assertions  1 assertion: 0 passed, 0 failed, 1 errored
      Judge  1 call: 0 replayed, 0 live, 1 failed · 1 request sent live · tokens 0 live, 0 replayed · cost $0.00

`,
  )
})

test('a toPassScorer assertion shows score, threshold and reason', async () => {
  const run = await runVitest('reporter', ['scorer.test.ts'])
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toBe(
    `${RUN} ✓ scorer.test.ts (1 test) [...]ms
   ✓ keeps a friendly tone
     ✓ scorer "tone": score 0.9, threshold 0.8: Warm and polite throughout.
${footer('1 passed (1)', '1 passed (1)')} Assertions  1 assertion (1 scorer): 1 passed, 0 failed, 0 errored
      Judge  2 calls: 2 replayed, 0 live · tokens 0 live, 800 replayed · cost $0.00

`,
  )
})

test('a loop shows each iteration with its scorers, then the verdicts of its last check', async () => {
  const run = await runVitest('reporter', ['loop.test.ts'])
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toBe(
    `${RUN} ✓ loop.test.ts (1 test) [...]ms
   ✓ drafts until the reply is polite
     ✓ loop: complete after 3 iterations
       1. ✗ polite 0: The reply is curt.
       2. ✗ polite 0.5: Still curt.
       3. ✓ polite 1
       ✓ [required] Is polite
${footer('1 passed (1)', '1 passed (1)')} Assertions  1 loop: 1 complete, 0 incomplete, 0 errored · 1 criterion: 1 met, 0 required unmet, 0 optional unmet
      Judge  3 calls: 3 replayed, 0 live · tokens 0 live, 3,000 replayed · cost $0.00

`,
  )
})
