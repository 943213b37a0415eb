// The judge's bounds end what a call awaits even when the transport never hears the abort
// (ARCHITECTURE.md §4.1): a request that never settles is left behind at the bound.
import { expect, test } from 'vitest'
import { joinSignals, untilAborted } from '../../src/judge/retries'

test('a request that never settles is ended by the bound that aborts first, with its reason', async () => {
  const deadline = new AbortController()
  const timeout = new AbortController()
  const never = new Promise<string>(() => {})
  const waiting = untilAborted(never, [deadline.signal, timeout.signal])
  timeout.abort(new Error('request timed out'))
  await expect(waiting).rejects.toThrow('request timed out')
  deadline.abort(new Error('too late'))
})

test('a request that settles first keeps its result or its own error', async () => {
  const bound = new AbortController()
  await expect(untilAborted(Promise.resolve('reply'), [bound.signal])).resolves.toBe('reply')
  await expect(untilAborted(Promise.reject(new Error('refused')), [bound.signal])).rejects.toThrow(
    'refused',
  )
  bound.abort(new Error('after the end'))
})

test('a bound already aborted ends the wait at once, and a later failure of the work is not unhandled', async () => {
  const bound = new AbortController()
  bound.abort(new Error('deadline passed'))
  let fail = (_: Error) => {}
  const work = new Promise<never>((_, reject) => {
    fail = reject
  })
  await expect(untilAborted(work, [bound.signal])).rejects.toThrow('deadline passed')
  fail(new Error('the transport gave up later'))
  await new Promise((done) => setTimeout(done, 10))
})

test('a joined signal aborts with the reason of the source that aborted, and lets go of its sources', () => {
  const caller = new AbortController()
  const bound = new AbortController()
  const joined = joinSignals([caller.signal, bound.signal])
  bound.abort(new Error('deadline'))
  expect(joined.signal.aborted).toBe(true)
  expect((joined.signal.reason as Error).message).toBe('deadline')
  joined.dispose()

  const other = joinSignals([caller.signal])
  other.dispose()
  caller.abort(new Error('test ended'))
  expect(other.signal.aborted).toBe(false)
})

test("an abort can end the wait with the caller's own error, and an unset bound is none", async () => {
  const caller = new AbortController()
  const never = new Promise<string>(() => {})
  const waiting = untilAborted(never, [undefined, caller.signal], () => new Error('call aborted'))
  caller.abort(new Error('the signal says why'))
  await expect(waiting).rejects.toThrow('call aborted')
  // No bound at all: the work is awaited as it is.
  await expect(untilAborted(Promise.resolve('reply'), [undefined])).resolves.toBe('reply')
})
