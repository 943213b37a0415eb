import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'
import { contentText, isMessageList, lastText } from './message-text'
import { binaryLength, stableJson } from './stable-json'

type Loose = Record<string, unknown>

/**
 * The text a judge sees for a value under test (ARCHITECTURE.md §8.2). Recognised, in this order:
 * - a string, as is;
 * - a list of chat messages: the last assistant message that has text, its text parts joined;
 * - an OpenAI chat completion: the first choice's message (its refusal when it refused);
 * - an OpenAI Responses object: `output_text`, else the text parts of its output messages;
 * - an object with a string `text` (AI SDK `generateText` results, Mastra agent results, `{ text }`);
 * - an object with `content`: a string, a list of content parts, or a Mastra stored message;
 * - anything else: JSON with sorted keys, two-space indented.
 *
 * `undefined` and `null` give the empty string (the judge is told the output is empty); numbers,
 * booleans and bigints their `String()`; binary data (Buffer, typed arrays, ArrayBuffer, Blob)
 * `[binary: N bytes]`, in JSON too; circular references `[circular]`. A Promise, or a `text` that
 * is a Promise (a streaming result), throws `RUBRICATE_USAGE` saying what to await; so does a
 * value that cannot be read at all (a Proxy whose traps throw, say).
 *
 * @example
 * outputText(await generateText({ model, prompt })) // the result's text
 */
export function outputText(value: unknown): string {
  try {
    return readOutput(value)
  } catch (error) {
    if (isRubricateError(error)) throw error
    throw new UsageError(messages.valueUnreadable('The value under test', error), { cause: error })
  }
}

function readOutput(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return ''
  if (isThenable(value)) throw new UsageError(messages.outputIsPromise())
  if (typeof value !== 'object')
    return typeof value === 'function' ? stableJson(value) : String(value)
  const bytes = binaryLength(value)
  if (bytes !== undefined) return `[binary: ${bytes} bytes]`
  if (Array.isArray(value)) return listText(value) ?? stableJson(value)
  const object = value as Loose
  const text = readField(object, 'text')
  if (isThenable(text)) throw new UsageError(messages.outputTextIsPromise())
  return (
    chatCompletionText(object) ??
    responsesText(object) ??
    (typeof text === 'string' ? text : undefined) ??
    contentText(readField(object, 'content')) ??
    stableJson(value)
  )
}

/** True for a Promise or any other object with a `then` method. @internal */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

function listText(list: unknown[]): string | undefined {
  if (isMessageList(list)) return lastText(list, 'assistant')
  // A bare list of typed content parts, e.g. an AI SDK `content` array.
  const typedParts =
    list.length > 0 && list.every((part) => typeof (part as Loose)?.type === 'string')
  return typedParts ? contentText(list) : undefined
}

function chatCompletionText(object: Loose): string | undefined {
  const choices = object.choices
  if (!Array.isArray(choices) || choices.length === 0) return undefined
  const choice = choices[0] as Loose | undefined
  if (typeof choice?.text === 'string') return choice.text // legacy completions
  const message = choice?.message as Loose | undefined
  if (typeof message !== 'object' || message === null) return undefined
  if (typeof message.content === 'string') return message.content
  if (typeof message.refusal === 'string') return message.refusal
  // Tool calls and no text: the judge sees the message itself.
  return contentText(message.content) ?? stableJson(message)
}

function responsesText(object: Loose): string | undefined {
  const output = object.output
  const isResponse = object.object === 'response' || typeof object.output_text === 'string'
  if (!isResponse || !Array.isArray(output)) return undefined
  if (typeof object.output_text === 'string' && object.output_text !== '') return object.output_text
  const texts: string[] = []
  for (const item of output as Loose[]) {
    if (item?.type !== 'message') continue
    const text = contentText(item.content)
    if (text !== undefined) texts.push(text)
  }
  return texts.length > 0 ? texts.join('') : stableJson(output)
}

// Result objects may expose fields as getters (the AI SDK does); a throwing getter counts as absent.
function readField(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
