import { afterEach, expect, test } from 'vitest'
import { rootCause } from '../../src/errors'
import { retryDelayMs } from '../../src/judge/retries'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf, scoreWith } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const ABORTED = linked(
  '[rubricate] The call to the judge "gpt-test" was aborted before it finished (for example by the test timeout). If the judge is slow, raise the test\'s timeout; calls replayed from cassettes answer at once.',
  'judge-request',
)

test('a judge call is aborted by the signal of its call context (the test timeout)', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.hang() })
  const controller = new AbortController()
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const pending = withCallContext({ signal: controller.signal }, () =>
    scoreWith(judge).run({ output: 'x' }),
  )
  setTimeout(() => controller.abort(new Error('Test timed out in 5000ms.')), 100)
  const error = await rejectionOf(pending)
  expect(error.code).toBe('RUBRICATE_SCORER_RUN')
  expect(rootCause(error)).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', message: ABORTED })
  expect(error.result.judgeCalls).toEqual([expect.objectContaining({ status: 'failed' })])
})

test('an abort during a Retry-After wait ends the call at once instead of after the wait', async () => {
  // The wait is the 30 s cap, longer than this test's timeout: only a prompt abort passes.
  server = await startFakeOpenAI({ reply: fakeReply.status(429, { retryAfter: 30 }) })
  const controller = new AbortController()
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const pending = withCallContext({ signal: controller.signal }, () =>
    scoreWith(judge).run({ output: 'x' }),
  )
  const poll = setInterval(() => {
    if (server?.requests.length) controller.abort()
  }, 20)
  try {
    expect(rootCause(await rejectionOf(pending))).toMatchObject({ message: ABORTED })
  } finally {
    clearInterval(poll)
  }
  expect(server.requests).toHaveLength(1)
}, 15_000)

test('a call whose signal has already fired sends nothing', async () => {
  server = await startFakeOpenAI({ reply: { score: 1 } })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const error = await rejectionOf(
    withCallContext({ signal: AbortSignal.abort() }, () => scoreWith(judge).run({ output: 'x' })),
  )
  expect(rootCause(error)).toMatchObject({ message: ABORTED })
  expect(server.requests).toHaveLength(0)
})

test('a Retry-After above 30 s is capped at 30 s, in every form; shorter waits are as asked', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  const delay = (headers: Record<string, string>) => retryDelayMs(new Headers(headers), 0, now)
  expect(delay({ 'retry-after': '120' })).toBe(30_000)
  expect(delay({ 'retry-after-ms': '90000' })).toBe(30_000)
  expect(delay({ 'retry-after': new Date(now + 600_000).toUTCString() })).toBe(30_000)
  expect(delay({ 'retry-after': '7', 'retry-after-ms': '1500' })).toBe(1500)
  expect(delay({ 'retry-after': '7' })).toBe(7000)
  expect(delay({ 'retry-after': new Date(now - 5000).toUTCString() })).toBe(0)
})

test('without a Retry-After the wait backs off from 0.5 s to at most 8 s, with up to 25% jitter', () => {
  const waits = [0, 1, 2, 3, 4, 9].map((retry) => retryDelayMs(new Headers(), retry))
  const bounds = [500, 1000, 2000, 4000, 8000, 8000]
  waits.forEach((wait, i) => {
    expect(wait).toBeLessThanOrEqual(bounds[i] as number)
    expect(wait).toBeGreaterThanOrEqual((bounds[i] as number) * 0.75)
  })
})
