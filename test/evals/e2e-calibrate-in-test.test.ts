// End to end: calibrateJudge() called inside a test of a fixture project (issue 30, item 5). Its
// labelled set is read from beside the test file, as describeEval's data is; its judgements are
// parts of the calibration, not assertions, so the run's summary counts no failed scorer for the
// examples the judge got wrong; and with samples: 3 its many calls in flight add no listener
// warning on the test's signal. Each of the three fails on the code before the fix of each.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'
import { runVitest } from '../support/run-vitest'

let server: FakeOpenAI

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: keywordJudge })
})

afterAll(() => server.close())

test('calibrateJudge inside a test reads labels beside it, leaves no scorer record per example and no MaxListenersExceededWarning', async () => {
  const result = await runVitest('evals', ['--config=vitest.calibration.config.ts'], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' },
  })
  expect(result.exitCode, result.stdout + result.stderr).toBe(0)
  // One call per example and sample, judging both criteria at once: 12 × 3.
  expect(server.requests).toHaveLength(36)
  expect(result.stdout).toContain('      Tests  1 passed (1)')
  expect(result.stdout).not.toMatch(/Assertions .*failed/)
  expect(result.stdout).not.toContain('scorer')
  expect(result.stderr).not.toContain('MaxListenersExceededWarning')
  expect(result.stdout).not.toContain('MaxListenersExceededWarning')
}, 120_000)
