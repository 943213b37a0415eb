// Group 1, through Vitest itself: a fixture project whose judge never answers, or answers later
// than the test timeout allows. The test timeout ends each assertion (the matcher passes the
// test's signal to the judge), the failure says so, and the run ends: nothing waits for the
// judge's 30 s Retry-After or its trickling body. With no test timeout at all (--testTimeout=0)
// and garbage collected all along, the judge's own deadline ends the call (issue 27). On Node 22
// (the node22 lane) this run hung until killed while the wait for a request hung on an
// `AbortSignal.any()` signal that a collection let go; the bounds now end the wait themselves.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { failureBlock } from '../support/failure-block'
import { userMessage } from '../support/rubric-judge'
import { runVitest, type VitestRun } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

let server: FakeOpenAI
let run: VitestRun
let unbounded: VitestRun
let unboundedMs = 0

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const prompt = userMessage(request)
      if (prompt.includes('\nHANG\n') || prompt.includes('\nSILENT\n')) return fakeReply.hang()
      if (prompt.includes('\nRATE_LIMITED\n')) return fakeReply.status(429, { retryAfter: 3600 })
      if (prompt.includes('\nTRICKLE\n')) return fakeReply.json(GREETS, { chunkDelayMs: 1_000 })
      return GREETS
    },
  })
  // Killed, and failed, if the run is still going after 25 s: the judge's waits are 30 s and more.
  const started = performance.now()
  ;[run, unbounded] = await Promise.all([
    runVitest('reliability-timeout', ['judge-never-answers.test.ts'], {
      env: { FAKE_OPENAI_URL: server.baseURL },
      timeoutMs: 25_000,
    }),
    runVitest('reliability-timeout', ['judge-deadline.test.ts', '--testTimeout=0'], {
      env: {
        FAKE_OPENAI_URL: server.baseURL,
        FIXTURE_CASSETTES: tempDir('rubricate-deadline-'),
        NODE_OPTIONS: '--expose-gc',
      },
      timeoutMs: 25_000,
    }).then((done) => {
      unboundedMs = performance.now() - started
      return done
    }),
  ])
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

  test('with --testTimeout=0 and garbage collected while it waits, a judge that never answers ends at its deadline with a clear error', () => {
    const block = failureBlock(
      unbounded.stderr,
      'judge-deadline.test.ts > a judge that never answers, with no test timeout, while garbage is collected',
    )
    expect(block).toContain('RUBRICATE_JUDGE_REQUEST')
    expect(block).toContain(
      `The judge "gpt-judge" at "${server.baseURL}" gave no usable reply within 3000 ms (deadlineMs)`,
    )
    expect(unbounded.stderr).not.toContain('Test timed out')
    expect(unbounded.exitCode).toBe(1)
    // A request timed out after 1 s is retried until the deadline: more than one request.
    const silent = server.requests.filter((request) => userMessage(request).includes('\nSILENT\n'))
    expect(silent.length).toBeGreaterThan(1)
    // The deadline (3 s) and Vitest's start and end; far below the 25 s the run may take.
    expect(unboundedMs).toBeLessThan(20_000)
  })
})
