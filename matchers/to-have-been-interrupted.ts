import type { MatcherState } from 'vitest'
import { messages } from '../src/messages'
import { pendingInterrupts } from '../src/output/pauses-and-answers'

/**
 * Passes when the run is paused: a LangGraph state, snapshot or collected stream stopped at
 * `interrupt()`, or an OpenAI Agents SDK run stopped for tool approvals. A value where a pause
 * cannot be read is a usage error. No judge is called.
 *
 * @example
 * expect(await graph.invoke(input, config)).toHaveBeenInterrupted()
 */
export function toHaveBeenInterrupted(
  this: MatcherState,
  received: unknown,
): { pass: boolean; message: () => string } {
  const pending = pendingInterrupts(received)
  const negated = Boolean(this.isNot)
  return {
    pass: pending.length > 0,
    message: () =>
      [
        this.utils.matcherHint(`${negated ? '.not' : ''}.toHaveBeenInterrupted`, 'output', ''),
        '',
        negated ? messages.interruptedNegated(pending.length) : messages.notInterrupted(),
        ...(pending.length > 0 ? ['', `Pending: ${this.utils.printReceived(pending)}`] : []),
      ].join('\n'),
  }
}
