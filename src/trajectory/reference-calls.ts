// A reference trajectory read as the calls it holds: a plain list of calls, or any message list
// or result the output readers read (ARCHITECTURE.md §8.2), which read it whole or refuse it.

import { isRubricateError, UsageError } from '../errors'
import { toolCalls } from '../output'
import { trajectoryMessages } from './trajectory-messages'

/** One call the agent should make: the tool's name and, optionally, its arguments. */
export interface ExpectedToolCall {
  name: string
  /** Compared as `args` says; absent: any arguments. */
  args?: unknown
}

/**
 * The calls of a reference: a list of tool names and `{ name, args? }` calls as given (a call
 * without `args` matches any arguments), else the calls `toolCalls()` reads from it, each with
 * the arguments it was made with. `where` names the option in errors.
 * @internal
 */
export function referenceCalls(where: string, value: unknown): ExpectedToolCall[] {
  if (Array.isArray(value) && value.length > 0 && value.every(isPlainCall)) {
    return value.map((entry: string | ExpectedToolCall) =>
      typeof entry === 'string' ? { name: entry } : entry,
    )
  }
  try {
    return toolCalls(value).map((call) => ({ name: call.name, args: call.args }))
  } catch (error) {
    if (!isRubricateError(error) || error.code !== 'RUBRICATE_USAGE') throw error
    throw new UsageError(trajectoryMessages.referenceUnreadable(where, error.message), {
      cause: error,
    })
  }
}

// A tool name, or `{ name, args? }` with no other key: no message or item shape is only that.
function isPlainCall(entry: unknown): boolean {
  if (typeof entry === 'string') return entry !== ''
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false
  const call = entry as Record<string, unknown>
  return (
    typeof call.name === 'string' &&
    call.name !== '' &&
    Object.keys(call).every((key) => key === 'name' || key === 'args')
  )
}
