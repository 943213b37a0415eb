import { afterEach, expect, test } from 'vitest'
import { rootCause } from '../../src'
import { withCallContext } from '../../src/call-context'
import { capRetryAfter } from '../../src/judge/retry-after-cap'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { rejectionOf, scoreWith } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const ABORTED =
  '[rubricate] The call to the judge "gpt-test" was aborted before it finished (for example by the test timeout). If the judge is slow, raise the test\'s timeout; calls replayed from cassettes answer at once.'

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

test('a Retry-After above 30 s is capped at 30 s before the SDK reads it, in every form', async () => {
  server = await startFakeOpenAI({
    reply: [
      fakeReply.status(429, { retryAfter: 120 }),
      fakeReply.status(429, { headers: { 'retry-after-ms': '90000' } }),
      fakeReply.status(429, {
        headers: { 'retry-after': new Date(Date.now() + 600_000).toUTCString() },
      }),
      fakeReply.status(429, { retryAfter: 7, headers: { 'retry-after-ms': '1500' } }),
    ],
  })
  const headersOf = async () => {
    const response = capRetryAfter(
      await fetch(`${server?.baseURL}/chat/completions`, { method: 'POST', body: '{}' }),
    )
    return [response.headers.get('retry-after'), response.headers.get('retry-after-ms')]
  }
  expect(await headersOf()).toEqual(['30', null])
  expect(await headersOf()).toEqual([null, '30000'])
  expect(await headersOf()).toEqual(['30', null])
  // Short waits are left as the provider asked.
  expect(await headersOf()).toEqual(['7', '1500'])
})

test('a capped response keeps its status and body for the SDK', async () => {
  server = await startFakeOpenAI({
    reply: fakeReply.status(429, { retryAfter: 120, message: 'Rate limit reached' }),
  })
  const response = capRetryAfter(
    await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' }),
  )
  expect(response.status).toBe(429)
  expect(await response.json()).toMatchObject({ error: { message: 'Rate limit reached' } })
})
