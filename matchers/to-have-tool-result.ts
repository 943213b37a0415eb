import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { toolCalls } from '../src/output'
import { toolResults } from '../src/output/tool-results'

/**
 * Passes when a call of the tool `name` returned `result` (deep-equal; asymmetric matchers work),
 * or, without `result`, returned anything. Pairs each call with its result by call id (a Gemini
 * result without one by name, in order). A call of `name` whose result cannot be found, when none
 * matched, is a usage error: `.not` would pass without knowing what the tool returned. No judge
 * is called.
 *
 * @example
 * expect(await agent.invoke(input)).toHaveToolResult('lookup_ticket', 'ticket T1: open')
 */
export function toHaveToolResult(
  this: MatcherState,
  received: unknown,
  name: unknown,
  ...rest: unknown[]
): { pass: boolean; message: () => string } {
  if (typeof name !== 'string' || name === '') {
    throw new UsageError(messages.toolNameNotString(name, 'toHaveToolResult'))
  }
  const calls = toolCalls(received).filter((call) => call.name === name)
  const found = toolResults(received)
  const byName = new Map([...found.byName].map(([tool, list]) => [tool, [...list]]))
  const returned = calls.map((call) => {
    if (call.id !== undefined && found.byId.has(call.id)) return { value: found.byId.get(call.id) }
    const queue = byName.get(call.name)
    return queue && queue.length > 0 ? { value: queue.shift() } : undefined
  })
  const hasExpected = rest.length > 0
  const index = returned.findIndex(
    (entry) => entry !== undefined && (!hasExpected || this.equals(entry.value, rest[0])),
  )
  const missing = returned.indexOf(undefined)
  if (index < 0 && missing >= 0) {
    throw new UsageError(messages.toolResultMissing(name, missing + 1))
  }
  const negated = Boolean(this.isNot)
  return {
    pass: index >= 0,
    message: () =>
      [
        this.utils.matcherHint(
          `${negated ? '.not' : ''}.toHaveToolResult`,
          'output',
          hasExpected ? 'name, result' : 'name',
        ),
        '',
        negated
          ? messages.toolResultNegated(name, hasExpected, index + 1)
          : messages.toolResultAbsent(name, hasExpected, calls.length),
        ...(hasExpected && !negated ? ['', `Expected: ${this.utils.printExpected(rest[0])}`] : []),
        '',
        `Returned: ${this.utils.printReceived(returned.map((entry) => entry?.value))}`,
      ].join('\n'),
  }
}
