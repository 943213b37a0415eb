import type { RunnerTestCase } from 'vitest'
import type { ExpectedUndecided, RuntimeState } from '../src/runtime/state'

// The undecided calls (misses, judge errors, undecided assertions) of each running test (the
// runtime's test part), and of the file outside any test (beforeAll, module scope; its file
// part, which the setup file empties before each file). The setup file fails a test whose own
// failure does not show them, and the file for the ones no test made. Each function is handed
// the runtime by its caller (the setup file, `expectUndecided`).

/** Start collecting for `test` (one attempt of it). @internal */
export function openTest(runtime: RuntimeState, test: RunnerTestCase): void {
  runtime.test.undecided.set(test, [])
  runtime.test.expectedUndecided.delete(test)
}

/**
 * What `test` collected since {@link openTest}, and the codes it expected that no call met; it
 * collects no more.
 * @internal
 */
export function closeTest(
  runtime: RuntimeState,
  test: RunnerTestCase,
): { errors: Error[]; unmet: string[] } {
  const { undecided: tests, expectedUndecided: expectedBy } = runtime.test
  const errors = tests.get(test) ?? []
  const unmet = (expectedBy.get(test) ?? [])
    .filter((expected) => expected.open && expected.seen === 0)
    .map((expected) => expected.code)
  tests.delete(test)
  expectedBy.delete(test)
  return { errors, unmet }
}

/** Expect undecided calls with `code` in `test`, from now on. @internal */
export function expectUndecidedIn(
  runtime: RuntimeState,
  test: RunnerTestCase,
  code: string,
): ExpectedUndecided {
  const expectedBy = runtime.test.expectedUndecided
  const expected: ExpectedUndecided = { code, open: true, seen: 0 }
  const list = expectedBy.get(test) ?? []
  list.push(expected)
  expectedBy.set(test, list)
  return expected
}

/**
 * Note an undecided call of `test` (the test whose code made it; when the call lost track of its
 * test, the only test running), or of the file when there is none. A call of a test that has
 * already finished is dropped (the not-awaited guard failed it), but for a refused connection,
 * which the file answers for.
 * @internal
 */
export function noteUndecided(
  runtime: RuntimeState,
  error: Error,
  made: RunnerTestCase | undefined,
): void {
  const { undecided: tests, expectedUndecided: expectedBy } = runtime.test
  const key = missKey(error)
  const test = made
  const file = runtime.file
  if (!test) {
    file.undecidedOutside.push(error)
    return
  }
  if (key !== undefined) file.claimedMisses.add(key)
  const code = (error as { code?: unknown }).code
  // A connection refused after its test ended (a tracer's batch on a timer) has no guard that
  // failed the test for it: the file answers for it.
  if (!tests.has(test) && code === 'RUBRICATE_NETWORK_BLOCKED') {
    file.undecidedOutside.push(error)
    return
  }
  const expected = expectedBy.get(test)?.find((each) => each.open && each.code === code)
  if (expected) {
    expected.seen++
    return
  }
  tests.get(test)?.push(error)
}

/** The file's undecided calls outside tests, and the miss keys tests answered for, then forgotten. @internal */
export function takeFileUndecided(runtime: RuntimeState): {
  outside: Error[]
  claimed: Set<string>
} {
  const file = runtime.file
  const taken = { outside: file.undecidedOutside, claimed: new Set(file.claimedMisses) }
  file.undecidedOutside = []
  file.claimedMisses.clear()
  return taken
}

/** The cassette key of a miss, which every message about it quotes. @internal */
export function missKey(error: Error): string | undefined {
  const { code, key } = error as { code?: unknown; key?: unknown }
  return code === 'RUBRICATE_CASSETTE_MISS' && typeof key === 'string' ? key : undefined
}
