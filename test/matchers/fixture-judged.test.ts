// Runs Vitest on test/fixtures/judged-esm: text rubrics judged by a fake judge through the real
// rubric scorer, a support agent calling the same fake server, live, then recorded and replayed.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FakeOpenAI } from '../../src/testing'
import { failureBlock } from '../support/failure-block'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { runVitest } from '../support/run-vitest'

let server: FakeOpenAI

beforeAll(async () => {
  server = await startFixtureOpenAI()
})

afterAll(async () => {
  await server.close()
})

test('live: passing and failing rubrics, .not, concurrent tests, a loop, and a judge error failing both ways', async () => {
  const run = await runVitest('judged-esm', [], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' },
  })
  expect(run.stdout).toContain('Tests  4 failed | 4 passed (8)')
  expect(run.exitCode).toBe(1)
  expect(failureBlock(run.stderr, 'judged.test.ts > misses an apology')).toMatch(
    /^Error: expect\(output\)\.toSatisfyRubric\(criteria\)\n\nRubric not satisfied: 1 of 2 required criteria unmet\.\n\n {2}✓ \[required\] Mentions refund\n {6}→ The output says "refund"\.\n {2}✗ \[required\] Mentions sorry\n {6}→ The output never says "sorry"\.\n {2}○ \[optional\] Mentions days\n {6}→ The output never says "days"\.\n\nOutput: "Echo: where is my refund"\nJudge: gpt-judge · live · [\d,]+ tokens$/,
  )
  const fastFail = failureBlock(run.stderr, 'judged.test.ts > concurrent: a fast fail')
  expect(fastFail).toContain('✗ [required] Mentions refund')
  expect(fastFail).toContain('Output: "sorry about that"')
  for (const name of ['toSatisfyRubric', '.not.toSatisfyRubric']) {
    const block = failureBlock(run.stderr, `judge-error.test.ts > a judge error fails ${name}`)
    expect(block).toMatch(
      /^JudgeRequestError: expect\(output\)(\.not)?\.toSatisfyRubric\(criteria\)\n\nThis assertion could not be decided, so it fails with or without \.not \(RUBRICATE_JUDGE_REQUEST\):\n\[rubricate\] /,
    )
    expect(block).toContain('401')
  }
})
