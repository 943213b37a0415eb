import type { RubricateErrorCode } from '../src/errors'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { runtimeState } from '../src/runtime/state'
import { currentTest } from './current-test'
import { expectUndecidedIn } from './undecided-calls'

const CODES: readonly RubricateErrorCode[] = [
  'RUBRICATE_NO_JUDGE',
  'RUBRICATE_JUDGE_OUTPUT',
  'RUBRICATE_JUDGE_REQUEST',
  'RUBRICATE_CASSETTE_MISS',
  'RUBRICATE_CASSETTE_CORRUPT',
  'RUBRICATE_SECRET_IN_CASSETTE',
  'RUBRICATE_CASSETTE_WRITE',
  'RUBRICATE_NETWORK_BLOCKED',
  'RUBRICATE_SCORER_RUN',
  'RUBRICATE_USAGE',
  'RUBRICATE_LIMIT',
]

/**
 * Expect an undecided call on purpose: a call that ends with the rubricate error `code` (a usage
 * error, a judge failure, a cassette miss) does not fail the test, whatever catches it, where
 * otherwise every undecided call fails its test (ARCHITECTURE.md §8.2). Calls with any other code
 * still fail it, and so does the test when no call with `code` came: the opt-out is an assertion.
 *
 * Without `fn`, it holds for the rest of the test; with `fn`, only for the calls `fn` makes, and
 * it resolves to what `fn` returns.
 *
 * @example
 * import { expectUndecided } from 'rubricate/matchers'
 *
 * test('an empty rubric is a usage error', async () => {
 *   expectUndecided('RUBRICATE_USAGE')
 *   await expect(expect('reply').toSatisfyRubric('')).rejects.toThrow('RUBRICATE_USAGE')
 * })
 *
 * test('a failing judge rejects the scorer run', async () => {
 *   await expectUndecided('RUBRICATE_JUDGE_REQUEST', () =>
 *     expect(scorer.run({ output: 'x' })).rejects.toThrow(),
 *   )
 * })
 */
export function expectUndecided(code: RubricateErrorCode): void
export function expectUndecided<T>(code: RubricateErrorCode, fn: () => T | Promise<T>): Promise<T>
export function expectUndecided<T>(
  code: RubricateErrorCode,
  fn?: () => T | Promise<T>,
): Promise<T> | undefined {
  if (!CODES.includes(code)) throw new UsageError(messages.expectUndecidedBadCode(code, CODES))
  const test = currentTest()
  if (!test) throw new UsageError(messages.expectUndecidedOutsideTest())
  const expected = expectUndecidedIn(runtimeState(), test, code)
  if (fn === undefined) return undefined
  return (async () => {
    let result: T
    try {
      result = await fn()
    } finally {
      // Closed either way: the calls made after fn are the test's own again. When fn threw, its
      // error is the one to see, whether or not the expected call came.
      expected.open = false
    }
    if (expected.seen === 0) throw new Error(messages.expectedUndecidedScopedNone(code))
    return result
  })()
}
