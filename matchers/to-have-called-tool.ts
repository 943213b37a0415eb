import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { toolCalls } from '../src/output'
import { recordToolCalls } from './record-tool-calls'
import { assertArgsReadable, callMatches, type ExpectedCall, sideBySide } from './tool-call-match'

/**
 * Passes when the agent called the tool `name`, with arguments holding `args` when given (a
 * subset: other arguments may be there too; asymmetric matchers work). Reads the tool calls of an
 * OpenAI chat completion or Responses object, an AI SDK result or its steps, a Mastra agent
 * result, or a list of messages. No judge is called.
 *
 * @example
 * expect(await generateText({ model, tools, prompt })).toHaveCalledTool('lookup_order', { id: 'A1' })
 */
export function toHaveCalledTool(
  this: MatcherState,
  received: unknown,
  name: unknown,
  ...rest: unknown[]
): { pass: boolean; message: () => string } {
  if (typeof name !== 'string' || name === '') {
    throw new UsageError(messages.toolNameNotString(name))
  }
  const calls = toolCalls(received)
  // `toHaveCalledTool(name, undefined)` asks for a call with no arguments; `(name)` for any call.
  const hasArgs = rest.length > 0
  const expected: ExpectedCall = { name, args: rest[0], hasArgs }
  const index = calls.findIndex((call) => callMatches(this, call, expected, 'subset'))
  assertArgsReadable(calls, [expected], [index])
  recordToolCalls(this, 'toHaveCalledTool', index >= 0, [expected], calls)
  const negated = Boolean(this.isNot)
  return {
    pass: index >= 0,
    message: () => {
      const hint = this.utils.matcherHint(
        `${negated ? '.not' : ''}.toHaveCalledTool`,
        'output',
        hasArgs ? 'name, args' : 'name',
      )
      const head = negated
        ? messages.toolCalledNegated(name, hasArgs, index + 1)
        : messages.toolNotCalled(name, hasArgs, calls.length)
      const table = sideBySide(this, calls, [expected], [negated ? index : -1], false, {
        expected: messages.toolCallLabel(negated),
        actual: messages.toolCallsActualLabel(calls.length),
      })
      return [hint, '', head, '', ...table].join('\n')
    },
  }
}
