// Group 1, through Vitest itself: a fixture project whose judge never answers, or answers later
// than the test timeout allows. The test timeout ends each assertion (the matcher passes the
// test's signal to the judge), the failure says so, and the run ends: nothing waits for the
// judge's 30 s Retry-After or its trickling body.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { failureBlock } from '../support/failure-block'
import { userMessage } from '../support/rubric-judge'
import { runVitest, type VitestRun } from '../support/run-vitest'

let server: FakeOpenAI
let run: VitestRun

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const prompt = userMessage(request)
      if (prompt.includes('\nHANG\n')) return fakeReply.hang()
      if (prompt.includes('\nRATE_LIMITED\n')) return fakeReply.status(429, { retryAfter: 3600 })
      if (prompt.includes('\nTRICKLE\n')) return fakeReply.json(GREETS, { chunkDelayMs: 1_000 })
      return GREETS
    },
  })
  // Killed, and failed, if the run is still going after 25 s: the judge's waits are 30 s and more.
  run = await runVitest('reliability-timeout', [], {
    env: { FAKE_OPENAI_URL: server.baseURL },
    timeoutMs: 25_000,
  })
}, 40_000)

afterAll(async () => {
  await server?.close()
})

const TIMED_OUT = [
  'a judge that never answers',
  'a judge that never answers, under .not',
  'a judge whose Retry-After outlasts the test',
  'a judge whose reply trickles in for longer than the test',
]

describe('1. Judge faults', () => {
  test.for(TIMED_OUT)(
    'through the matcher, %s fails at the test timeout, and only for that',
    (name) => {
      const block = failureBlock(run.stderr, `judge-never-answers.test.ts > ${name}`)
      // Durations are masked in the normalised output; the raw output shows the 1.5 s timeout.
      expect(block.split('\n')[0]).toBe('Error: Test timed out in [...]ms.')
      // The not-awaited guard checks the abort state first, so the timeout is the only reason given.
      expect(run.stderr).not.toContain('was not awaited')
      expect(run.stderr).not.toContain('Unhandled')
    },
  )

  test('through the matcher, the run ends with the timed-out tests failed, each judge call made once', () => {
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('Tests  4 failed | 1 passed (5)')
    // Vitest 5 prints one error for the tests that failed with the same one.
    for (const name of TIMED_OUT) {
      expect(failureBlock(run.raw.stderr, `judge-never-answers.test.ts > ${name}`)).toContain(
        'Error: Test timed out in 1500ms.\n',
      )
    }
    const outputs = server.requests.map((request) =>
      ['HANG', 'RATE_LIMITED', 'TRICKLE'].find((word) =>
        userMessage(request).includes(`\n${word}\n`),
      ),
    )
    // No retry after the abort: one request per assertion.
    expect(outputs.filter((word) => word === 'HANG')).toHaveLength(2)
    expect(outputs.filter((word) => word === 'RATE_LIMITED')).toHaveLength(1)
    expect(outputs.filter((word) => word === 'TRICKLE')).toHaveLength(1)
  })
})
