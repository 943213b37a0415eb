import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { toolCalls } from '../src/output'
import { checkOptions } from './check-options'
import { recordToolCalls } from './record-tool-calls'
import {
  type ArgsMode,
  assertArgsReadable,
  expectedCalls,
  pairCalls,
  sideBySide,
} from './tool-call-match'

const OPTIONS = ['ordered', 'args'] as const
const ARGS_MODES: readonly ArgsMode[] = ['subset', 'exact']

/**
 * Passes when the agent made exactly the expected tool calls: as many calls as expected, each
 * matching one expected call, in the expected order unless `ordered: false`. An expected call is
 * a tool name (any arguments) or `{ name, args }`; `args: 'subset'` (default) lets the actual
 * arguments hold more keys than expected, `'exact'` wants them equal. No judge is called.
 *
 * @example
 * expect(result).toHaveToolCalls(['search', { name: 'lookup_order', args: { id: 'A1' } }])
 */
export function toHaveToolCalls(
  this: MatcherState,
  received: unknown,
  expected: unknown,
  options?: unknown,
): { pass: boolean; message: () => string } {
  const wanted = expectedCalls('toHaveToolCalls', expected)
  const opts = checkOptions('toHaveToolCalls', options, OPTIONS)
  const ordered = opts.ordered ?? true
  if (typeof ordered !== 'boolean') {
    throw new UsageError(
      messages.invalidChoice('toHaveToolCalls() option "ordered"', ordered, ['true', 'false']),
    )
  }
  const mode = (opts.args ?? 'subset') as ArgsMode
  if (!ARGS_MODES.includes(mode)) {
    throw new UsageError(
      messages.invalidChoice('toHaveToolCalls() option "args"', mode, ARGS_MODES),
    )
  }
  const calls = toolCalls(received)
  const pairs = pairCalls(this, calls, wanted, mode, ordered)
  assertArgsReadable(calls, wanted, pairs)
  const pass = calls.length === wanted.length && pairs.every((pair) => pair >= 0)
  recordToolCalls(this, 'toHaveToolCalls', pass, wanted, calls)
  const negated = Boolean(this.isNot)
  return {
    pass,
    message: () => {
      const hint = this.utils.matcherHint(
        `${negated ? '.not' : ''}.toHaveToolCalls`,
        'output',
        'expected',
      )
      const head = negated
        ? messages.toolCallsMatchedNegated()
        : messages.toolCallsMismatch(
            wanted.length,
            calls.length,
            pairs.filter((pair) => pair < 0).length,
          )
      const table = sideBySide(this, calls, wanted, pairs, ordered, {
        expected: messages.toolCallsLabel(negated, ordered, mode),
        actual: messages.toolCallsActualLabel(calls.length),
      })
      return [hint, '', head, '', ...table].join('\n')
    },
  }
}
