import type { RunnerTestCase } from 'vitest'
import { stateSlot } from '../src/runtime/state'

// The undecided calls (misses, judge errors, undecided assertions) of each running test, and of
// the file outside any test (beforeAll, module scope). The setup file fails a test whose own
// failure does not show them, and the file for the ones no test made.
const state = stateSlot('vitest-undecided-calls', () => ({
  tests: new Map<RunnerTestCase, Error[]>(),
  /** The undecided calls each test expects on purpose (`expectUndecided`). */
  expected: new Map<RunnerTestCase, ExpectedUndecided[]>(),
  outside: [] as Error[],
  /** Miss keys made by a test: that test answers for them, not the file. */
  claimed: new Set<string>(),
}))

/**
 * An undecided call a test expects: calls with this code made while it is open do not fail the
 * test; `seen` counts them, so an expectation that nothing met fails instead.
 * @internal
 */
export interface ExpectedUndecided {
  code: string
  open: boolean
  seen: number
}

/** Start collecting for `test` (one attempt of it). @internal */
export function openTest(test: RunnerTestCase): void {
  state.tests.set(test, [])
  state.expected.delete(test)
}

/**
 * What `test` collected since {@link openTest}, and the codes it expected that no call met; it
 * collects no more.
 * @internal
 */
export function closeTest(test: RunnerTestCase): { errors: Error[]; unmet: string[] } {
  const errors = state.tests.get(test) ?? []
  const unmet = (state.expected.get(test) ?? [])
    .filter((expected) => expected.open && expected.seen === 0)
    .map((expected) => expected.code)
  state.tests.delete(test)
  state.expected.delete(test)
  return { errors, unmet }
}

/** Expect undecided calls with `code` in `test`, from now on. @internal */
export function expectUndecidedIn(test: RunnerTestCase, code: string): ExpectedUndecided {
  const expected: ExpectedUndecided = { code, open: true, seen: 0 }
  const list = state.expected.get(test) ?? []
  list.push(expected)
  state.expected.set(test, list)
  return expected
}

/**
 * Note an undecided call of `test` (the test whose code made it; when the call lost track of its
 * test, the only test running), or of the file when there is none. A call of a test that has
 * already finished is dropped (the not-awaited guard failed it), but for a refused connection,
 * which the file answers for.
 * @internal
 */
export function noteUndecided(error: Error, made: RunnerTestCase | undefined): void {
  const key = missKey(error)
  const test = made
  if (!test) {
    state.outside.push(error)
    return
  }
  if (key !== undefined) state.claimed.add(key)
  const code = (error as { code?: unknown }).code
  // A connection refused after its test ended (a tracer's batch on a timer) has no guard that
  // failed the test for it: the file answers for it.
  if (!state.tests.has(test) && code === 'RUBRICATE_NETWORK_BLOCKED') {
    state.outside.push(error)
    return
  }
  const expected = state.expected.get(test)?.find((each) => each.open && each.code === code)
  if (expected) {
    expected.seen++
    return
  }
  state.tests.get(test)?.push(error)
}

/** The file's undecided calls outside tests, and the miss keys tests answered for, then forgotten. @internal */
export function takeFileUndecided(): { outside: Error[]; claimed: Set<string> } {
  const taken = { outside: state.outside, claimed: new Set(state.claimed) }
  state.outside = []
  state.claimed.clear()
  return taken
}

/** The cassette key of a miss, which every message about it quotes. @internal */
export function missKey(error: Error): string | undefined {
  const { code, key } = error as { code?: unknown; key?: unknown }
  return code === 'RUBRICATE_CASSETTE_MISS' && typeof key === 'string' ? key : undefined
}
