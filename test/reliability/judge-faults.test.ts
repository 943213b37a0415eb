// Group 1: the judge's endpoint fails. Every fault ends in bounded retries, then
// RUBRICATE_JUDGE_REQUEST, or in an abort at the test's signal: never a verdict, never a hang.
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test, vi } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { createRubricScorer, type JudgeModel } from '../../src'
import { DEFAULT_TIMEOUT_MS } from '../../src/judge/openai-judge'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeReply, fakeReply } from '../../src/testing'
import { linked } from '../support/error-page'
import {
  failureOf,
  judgeRubric,
  judgeServer,
  RUBRIC,
  SPLIT_VERDICT,
  SPLIT_VERDICTS,
} from './support'

expect.extend({ toSatisfyRubric, toPassScorer })

const exhausted = (url: string, problem: string, requests: number) =>
  linked(
    `[rubricate] The judge "gpt-judge" at "${url}" failed with ${problem} after ${requests} ${requests === 1 ? 'request' : 'requests'}. The provider is rate limiting, overloaded or unreachable; try again later, lower judgeConcurrency, or raise maxRetries in the judge object.`,
    'judge-request',
  )

const aborted = (model: string) =>
  linked(
    `[rubricate] The call to the judge "${model}" was aborted before it finished (for example by the test timeout). If the judge is slow, raise the test's timeout; calls replayed from cassettes answer at once.`,
    'judge-request',
  )

const HINTS: Record<number, string> = {
  400: 'Check the judge configuration (model, temperature, structuredOutput) against what the endpoint supports.',
  401: 'Check the API key (OPENAI_API_KEY, or apiKey in the judge object) and its permissions.',
  403: 'Check the API key (OPENAI_API_KEY, or apiKey in the judge object) and its permissions.',
  404: 'Check the model name and the baseURL of the judge.',
  422: 'Check the judge configuration (model, temperature, structuredOutput) against what the endpoint supports.',
}

const BODY_400 = 'x'.repeat(400)

interface RetriedCase {
  name: string
  reply: FakeReply | FakeReply[]
  maxRetries?: number
  timeoutMs?: number
  requests: number
  status: number | undefined
  /** The problem named in the message; a RegExp where the socket's wording may vary. */
  problem: string | RegExp
}

const retried: RetriedCase[] = [
  {
    name: 'a 429 storm with Retry-After: 0 stops after the default 2 retries',
    reply: fakeReply.status(429, { retryAfter: 0, message: 'Rate limit reached' }),
    requests: 3,
    status: 429,
    problem: 'HTTP 429 ("Rate limit reached")',
  },
  {
    name: 'a 429 storm without Retry-After stops after the default 2 retries (SDK backoff)',
    reply: fakeReply.status(429, { message: 'Rate limit reached' }),
    requests: 3,
    status: 429,
    problem: 'HTTP 429 ("Rate limit reached")',
  },
  {
    name: 'a 429 storm with retry-after-ms stops after maxRetries 1',
    reply: fakeReply.status(429, { headers: { 'retry-after-ms': '5' }, message: 'Slow down' }),
    maxRetries: 1,
    requests: 2,
    status: 429,
    problem: 'HTTP 429 ("Slow down")',
  },
  {
    name: 'a 429 storm whose Retry-After is a date in the past stops after maxRetries 1',
    reply: fakeReply.status(429, {
      headers: { 'retry-after': new Date(0).toUTCString() },
      message: 'Slow down',
    }),
    maxRetries: 1,
    requests: 2,
    status: 429,
    problem: 'HTTP 429 ("Slow down")',
  },
  {
    name: 'a 429 storm with maxRetries 0 makes exactly one request',
    reply: fakeReply.status(429, { retryAfter: 0, message: 'Slow down' }),
    maxRetries: 0,
    requests: 1,
    status: 429,
    problem: 'HTTP 429 ("Slow down")',
  },
  ...[500, 503, 504, 408].map(
    (status): RetriedCase => ({
      name: `a steady HTTP ${status} stops after maxRetries 1`,
      reply: fakeReply.status(status, { retryAfter: 0, message: `Fault ${status}` }),
      maxRetries: 1,
      requests: 2,
      status,
      problem: `HTTP ${status} ("Fault ${status}")`,
    }),
  ),
  {
    name: "a 502 from a gateway with an HTML body names the gateway's words",
    reply: fakeReply.raw({
      status: 502,
      headers: { 'content-type': 'text/html', 'retry-after': '0' },
      body: '<html><body>502 Bad Gateway</body></html>',
    }),
    maxRetries: 1,
    requests: 2,
    status: 502,
    problem: 'HTTP 502 ("<html><body>502 Bad Gateway</body></html>")',
  },
  {
    name: 'a 500 with an empty body still fails with its status',
    reply: fakeReply.raw({ status: 500, headers: { 'retry-after': '0' } }),
    maxRetries: 1,
    requests: 2,
    status: 500,
    problem: 'HTTP 500 ("status code (no body)")',
  },
  {
    name: 'a connection dropped every time stops after the default 2 retries',
    reply: fakeReply.drop(),
    requests: 3,
    status: undefined,
    problem: /^a connection error \(.+\)$/,
  },
  {
    name: 'a reply body cut off every time is a connection error, retried maxRetries times',
    reply: fakeReply.text(BODY_400, { dropAfterChunks: 1 }),
    maxRetries: 1,
    requests: 2,
    status: undefined,
    problem: /^a connection error \(.+\)$/,
  },
  {
    name: 'a reply that never comes hits the judge timeoutMs on every attempt',
    reply: fakeReply.hang(),
    maxRetries: 1,
    timeoutMs: 300,
    requests: 2,
    status: undefined,
    problem: 'a timeout',
  },
  {
    name: 'a mixed storm of 429, 503 and a drop stops after the default 2 retries',
    reply: [
      fakeReply.status(429, { retryAfter: 0 }),
      fakeReply.status(503, { retryAfter: 0 }),
      fakeReply.drop(),
    ],
    requests: 3,
    status: undefined,
    problem: /^a connection error \(.+\)$/,
  },
]

const recovering: { name: string; faults: FakeReply[] }[] = [
  { name: 'a 429 with Retry-After', faults: [fakeReply.status(429, { retryAfter: 0 })] },
  {
    name: 'two 503s',
    faults: [fakeReply.status(503, { retryAfter: 0 }), fakeReply.status(503, { retryAfter: 0 })],
  },
  { name: 'a dropped connection', faults: [fakeReply.drop()] },
  { name: 'a body cut off mid-way', faults: [fakeReply.text(BODY_400, { dropAfterChunks: 1 })] },
]

const neverComes: { name: string; reply: FakeReply }[] = [
  { name: 'a reply that never comes', reply: fakeReply.hang() },
  {
    name: 'a 429 whose Retry-After (an hour, capped at 30 s) outlasts the test',
    reply: fakeReply.status(429, { retryAfter: 3600 }),
  },
  {
    name: 'a reply that starts after 20 s',
    reply: fakeReply.delay(20_000, SPLIT_VERDICT),
  },
  {
    name: 'a slow body that trickles in for longer than the test',
    reply: fakeReply.json(SPLIT_VERDICT, { chunkDelayMs: 2_000 }),
  },
]

const matcherFaults: { name: string; reply: FakeReply; code: string }[] = [
  {
    name: 'a 429 storm',
    reply: fakeReply.status(429, { retryAfter: 0 }),
    code: 'RUBRICATE_JUDGE_REQUEST',
  },
  {
    name: 'a steady 503',
    reply: fakeReply.status(503, { retryAfter: 0 }),
    code: 'RUBRICATE_JUDGE_REQUEST',
  },
  { name: 'dropped connections', reply: fakeReply.drop(), code: 'RUBRICATE_JUDGE_REQUEST' },
  { name: 'a 401', reply: fakeReply.status(401), code: 'RUBRICATE_JUDGE_REQUEST' },
  {
    name: 'a web page instead of a chat completion',
    reply: fakeReply.raw({ headers: { 'content-type': 'text/html' }, body: '<html></html>' }),
    code: 'RUBRICATE_JUDGE_REQUEST',
  },
]

describe('1. Judge faults', () => {
  test.for(retried)('$name, then RUBRICATE_JUDGE_REQUEST', async (fault) => {
    const { server, judge } = await judgeServer(fault.reply, {
      ...(fault.maxRetries !== undefined && { maxRetries: fault.maxRetries }),
      ...(fault.timeoutMs !== undefined && { timeoutMs: fault.timeoutMs }),
    })
    const { error, root } = await failureOf(judgeRubric(judge))
    expect(server.requests).toHaveLength(fault.requests)
    expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', status: fault.status })
    if (typeof fault.problem === 'string') {
      expect(root.message).toBe(exhausted(server.baseURL, fault.problem, fault.requests))
    } else {
      const [head, tail] = exhausted(server.baseURL, '\0', fault.requests).split('\0')
      expect(root.message.startsWith(head)).toBe(true)
      expect(root.message.endsWith(tail)).toBe(true)
      expect(root.message.slice(head?.length, -(tail?.length ?? 0))).toMatch(fault.problem)
    }
    expect(error.result.judgeCalls).toEqual([
      expect.objectContaining({ status: 'failed', modelCallCount: fault.requests }),
    ])
  })

  test.for([400, 401, 403, 404, 422])(
    'an HTTP %i is not retried: one request, then RUBRICATE_JUDGE_REQUEST with what to check',
    async (status) => {
      const { server, judge } = await judgeServer(
        fakeReply.status(status, { message: `Refused with ${status}`, retryAfter: 0 }),
      )
      const { root } = await failureOf(judgeRubric(judge))
      expect(server.requests).toHaveLength(1)
      expect(root).toMatchObject({
        code: 'RUBRICATE_JUDGE_REQUEST',
        status,
        message: linked(
          `[rubricate] The judge "gpt-judge" at "${server.baseURL}" rejected the request with HTTP ${status}: "Refused with ${status}". This is not retried. ${HINTS[status]}`,
          'judge-request',
        ),
      })
    },
  )

  test.for(recovering)(
    "after $name the retry gets the judge's real verdicts, not a default",
    async ({ faults }) => {
      const { server, judge } = await judgeServer([...faults, fakeReply.json(SPLIT_VERDICT)])
      const result = await judgeRubric(judge)
      expect(result.verdicts).toEqual(SPLIT_VERDICTS)
      expect(result).toMatchObject({ passed: false, score: 0 })
      expect(server.requests).toHaveLength(faults.length + 1)
      expect(result.judgeCalls[0]).toMatchObject({
        status: 'success',
        attemptCount: 1,
        modelCallCount: faults.length + 1,
      })
    },
  )

  test("a slow body that arrives within the test gives the judge's verdicts", async () => {
    const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT, { chunkDelayMs: 15 }))
    const result = await judgeRubric(judge)
    expect(result.verdicts).toEqual(SPLIT_VERDICTS)
    expect(server.requests).toHaveLength(1)
  })

  test.for(neverComes)(
    '$name is aborted by the test signal: RUBRICATE_JUDGE_REQUEST, no retry, no hang',
    { timeout: 10_000 },
    async ({ reply }) => {
      const { server, judge } = await judgeServer(reply)
      const started = performance.now()
      const { error, root } = await failureOf(
        withCallContext({ signal: AbortSignal.timeout(300) }, () => judgeRubric(judge)),
      )
      // Lower bound only: it ended because of the signal, not before it. The test's own timeout
      // (10 s, well under the 20 s and 30 s waits above) is the upper bound.
      expect(performance.now() - started).toBeGreaterThanOrEqual(250)
      expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', message: aborted('gpt-judge') })
      expect(server.requests).toHaveLength(1)
      expect(error.result.judgeCalls).toEqual([expect.objectContaining({ status: 'failed' })])
    },
  )

  test('a custom judge whose reply never comes is aborted by the test signal', {
    timeout: 10_000,
  }, async () => {
    const silent: JudgeModel = { id: 'silent', complete: () => new Promise(() => {}) }
    const { root } = await failureOf(
      withCallContext({ signal: AbortSignal.timeout(200) }, () =>
        createRubricScorer({ judge: silent, criteria: RUBRIC }).run({ output: 'Hi' }),
      ),
    )
    expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', message: aborted('silent') })
  })

  test.for([
    {
      name: 'throws an Error',
      failure: new Error('upstream answered 503'),
      said: 'upstream answered 503.',
    },
    { name: 'rejects with a string', failure: 'socket hang up', said: 'socket hang up.' },
  ])(
    'a custom judge that $name fails with RUBRICATE_JUDGE_REQUEST saying so',
    async ({ failure, said }) => {
      const flaky: JudgeModel = { id: 'flaky', complete: () => Promise.reject(failure) }
      const { root } = await failureOf(
        createRubricScorer({ judge: flaky, criteria: RUBRIC }).run({ output: 'Hi' }),
      )
      expect(root).toMatchObject({
        code: 'RUBRICATE_JUDGE_REQUEST',
        message: linked(
          `[rubricate] The judge model "flaky" failed: ${said} Fix the JudgeModel's complete() function, or check the provider it calls.`,
          'judge-request',
        ),
      })
    },
  )

  test('a 429 storm on criteria judged separately is bounded per call: 3 calls x 2 requests', async () => {
    const { server, judge } = await judgeServer(fakeReply.status(429, { retryAfter: 0 }), {
      maxRetries: 1,
    })
    const { error, root } = await failureOf(
      createRubricScorer({
        judge,
        criteria: `${RUBRIC}\n- Is polite`,
        options: { evaluation: 'separately' },
      }).run({ output: 'Hi' }),
    )
    expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', status: 429 })
    expect(server.requests).toHaveLength(6)
    expect(error.result.judgeCalls).toHaveLength(3)
  })

  test.for(matcherFaults)(
    '$name fails toSatisfyRubric and .not.toSatisfyRubric alike, with its code',
    async ({ reply, code }) => {
      const { judge } = await judgeServer(reply, { maxRetries: 1 })
      for (const assertion of [
        () => expect('Hello! It is noon.').toSatisfyRubric(RUBRIC, { judge }),
        () => expect('Hello! It is noon.').not.toSatisfyRubric(RUBRIC, { judge }),
      ]) {
        const error = await assertion().then(
          () => undefined,
          (thrown: Error & { code?: string }) => thrown,
        )
        expect(error?.code).toBe(code)
        expect(stripVTControlCharacters(error?.message ?? '')).toContain(
          `This assertion could not be decided, so it fails with or without .not (${code}):\n[rubricate] `,
        )
      }
    },
  )

  test('with no timeoutMs, every judge request is bounded at 60 s, not the SDK default of 10 minutes', async () => {
    const { server, judge } = await judgeServer([
      fakeReply.status(503, { retryAfter: 0 }),
      fakeReply.json(SPLIT_VERDICT),
    ])
    const result = await judgeRubric(judge)
    expect(result.verdicts).toEqual(SPLIT_VERDICTS)
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000)
    // The SDK tells the server the timeout it holds each request to, retries included.
    expect(server.requests.map((request) => request.headers['x-stainless-timeout'])).toEqual([
      '60',
      '60',
    ])
  })

  const fakeClock: { name: string; reply: FakeReply[]; maxRetries?: number; timeoutMs?: number }[] =
    [
      {
        name: 'a 503 without Retry-After (SDK-style backoff)',
        reply: [fakeReply.status(503), fakeReply.json(SPLIT_VERDICT)],
      },
      {
        name: 'a 429 with Retry-After: 1',
        reply: [fakeReply.status(429, { retryAfter: 1 }), fakeReply.json(SPLIT_VERDICT)],
      },
      {
        name: 'a reply that never comes, then a verdict',
        reply: [fakeReply.hang(), fakeReply.json(SPLIT_VERDICT)],
        timeoutMs: 300,
      },
    ]

  test.for(fakeClock)(
    "under vi.useFakeTimers(), after $name the retry wakes on the real clock and gets the judge's verdicts",
    { timeout: 8_000 },
    async ({ reply, timeoutMs }) => {
      const { server, judge } = await judgeServer(reply, {
        ...(timeoutMs !== undefined && { timeoutMs }),
      })
      vi.useFakeTimers()
      try {
        const result = await judgeRubric(judge)
        expect(result.verdicts).toEqual(SPLIT_VERDICTS)
        expect(server.requests).toHaveLength(2)
      } finally {
        vi.useRealTimers()
      }
    },
  )

  test('under vi.useFakeTimers(), a 503 storm still ends in RUBRICATE_JUDGE_REQUEST after maxRetries', {
    timeout: 8_000,
  }, async () => {
    const { server, judge } = await judgeServer(fakeReply.status(503, { message: 'Down' }), {
      maxRetries: 1,
    })
    vi.useFakeTimers()
    try {
      const { root } = await failureOf(judgeRubric(judge))
      expect(root).toMatchObject({
        code: 'RUBRICATE_JUDGE_REQUEST',
        message: exhausted(server.baseURL, 'HTTP 503 ("Down")', 2),
      })
    } finally {
      vi.useRealTimers()
    }
  })
})
