import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'
import { itemKind } from './item-kinds'
import { firstText } from './message-text'
import { isThenable } from './output-text'
import { stableJson } from './stable-json'

type Loose = Record<string, unknown>

/**
 * The task text a judge sees for a run's `input`: a string as is; the first user message of a
 * message list (chat messages, LangChain messages, an OpenAI Agents SDK `history`); from an object, the first of `originalTask` (Mastra's completion context),
 * `inputMessages` (Mastra agent scorers), `messages`, `prompt` and `input` (request shapes) that
 * holds a task. Any other object is shown as JSON with sorted keys, without its `rubric` (which
 * the judge sees as criteria). `undefined` when there is no task: no input, or a message list
 * without a user message. A Promise, or an input that cannot be read at all, throws
 * `RUBRICATE_USAGE`.
 *
 * @example
 * taskText([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Refund?' }]) // 'Refund?'
 */
export function taskText(input: unknown): string | undefined {
  try {
    return readTask(input)
  } catch (error) {
    if (isRubricateError(error)) throw error
    throw new UsageError(messages.valueUnreadable('The input', error), { cause: error })
  }
}

function readTask(input: unknown): string | undefined {
  if (typeof input === 'string') return input
  if (input === undefined || input === null) return undefined
  if (isThenable(input)) throw new UsageError(messages.inputIsPromise())
  if (typeof input !== 'object') return String(input)
  if (Array.isArray(input))
    return isTrajectory(input) ? firstText(input, 'user') : stableJson(input)
  const object = input as Loose
  if (typeof object.originalTask === 'string') return object.originalTask
  for (const key of ['inputMessages', 'messages', 'prompt', 'input']) {
    const value = object[key]
    if (typeof value === 'string' && key !== 'inputMessages' && key !== 'messages') return value
    if (Array.isArray(value) && isTrajectory(value)) {
      const text = firstText(value, 'user')
      if (text !== undefined) return text
    }
  }
  const { rubric: _rubric, ...rest } = object
  return Object.keys(rest).length > 0 ? stableJson(rest) : undefined
}

// Messages, or messages among protocol items (an Agents SDK history): the user's first words.
function isTrajectory(list: unknown[]): list is Loose[] {
  return (
    list.length > 0 &&
    list.every((item) => itemKind(item) !== undefined) &&
    list.some((item) => itemKind(item) === 'message')
  )
}
