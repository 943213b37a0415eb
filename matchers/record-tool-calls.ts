// A tool-call assertion's way onto the report page: a record in the test's
// `meta.rubricateToolCalls`, redacted like every record. It is not a judged assertion, so the
// summary, the annotations and the terminal's verdict lines leave it out.
import type { MatcherState } from 'vitest'
import type { ToolCall } from '../src/output'
import { redactedValue } from '../src/output-safety/redacted-value'
import type { ToolCallAssertionRecord } from '../src/records/records'
import { currentTest } from './current-test'
import type { ExpectedCall } from './tool-call-match'

/**
 * Keep one tool-call assertion of the running test for the report page; outside a test (the
 * matcher called from a helper's own `expect`), nothing is kept.
 * @internal
 */
export function recordToolCalls(
  state: MatcherState,
  matcher: ToolCallAssertionRecord['matcher'],
  pass: boolean,
  expected: readonly ExpectedCall[],
  calls: readonly ToolCall[],
): void {
  const task = currentTest()
  if (!task) return
  const negated = Boolean(state.isNot)
  const record: ToolCallAssertionRecord = {
    matcher,
    status: pass !== negated ? 'pass' : 'fail',
    negated,
    expected: expected.map((call) =>
      call.hasArgs ? { name: call.name, args: argsText(state, call.args) } : { name: call.name },
    ),
    actual: calls.map((call) => ({ name: call.name, args: argsText(state, call.args) })),
  }
  const meta = task.meta as { rubricateToolCalls?: ToolCallAssertionRecord[] }
  meta.rubricateToolCalls ??= []
  meta.rubricateToolCalls.push(redactedValue(record))
}

// As the failure message prints arguments: asymmetric matchers by their own description.
function argsText(state: MatcherState, args: unknown): string {
  return state.utils.stringify(args, 10, { maxLength: 2000, printBasicPrototype: false })
}
