import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'
import { agentsFinalOutput, isAgentsRunResult } from './agents-sdk'
import {
  conversationReplies,
  conversationTranscript,
  type HeldMessage,
} from './conversation-output'
import { describeFound, itemKind, messageFields } from './item-kinds'
import { joinLangChainChunks } from './langchain-chunks'
import { assertNotInterrupted } from './langgraph'
import { langGraphState, rawAndParsed, refuseAsyncIterable } from './langgraph-streams'
import { contentText, lastText } from './message-text'
import { outputMessages } from './output-messages'
import { assertSdkStreamEnded } from './sdk-streams'
import { binaryLength, stableJson } from './stable-json'

type Loose = Record<string, unknown>

/**
 * The text a judge sees for a value under test (ARCHITECTURE.md §8.2). Recognised, in this order:
 * - a string, as is;
 * - an OpenAI Agents SDK `RunResult` or finished `StreamedRunResult`: its `finalOutput`;
 * - an Anthropic SDK `MessageStream`, an OpenAI SDK chat stream or `runTools()` runner, once it
 *   has ended: the last assistant reply of its `messages` (before that, a usage error);
 * - a list of chat messages, protocol items or run items (an Agents SDK `history` or `newItems`,
 *   a LangGraph state's `messages`): the last assistant reply that has text, its text parts
 *   joined; a list with an entry of no known shape is a usage error naming it;
 * - an OpenAI chat completion: the first choice's message (its refusal when it refused);
 * - an OpenAI Responses object: `output_text`, else the text parts of its output messages;
 * - an object with a string `text` (AI SDK `generateText` results, Mastra agent results, `{ text }`);
 * - an object with `content`: a string, a list of content parts, or a Mastra stored message
 *   (a LangChain `AIMessage` too, and its serialized form `{ lc: 1, type: 'constructor', kwargs }`);
 * - a Gemini response: the text parts of its first candidate;
 * - an object with a list of `messages` (a LangGraph state): the last assistant reply;
 * - anything else (plain data, a structured output): JSON with sorted keys, two-space indented.
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
  // A multi-turn row's conversation: every turn, not the last reply alone.
  if (conversationReplies(value)) return conversationTranscript(value as HeldMessage[])
  // LangGraph's streams, events and snapshots: the state they stand for.
  const state = langGraphState(value)
  if (state !== undefined) return readOutput(state)
  if (Array.isArray(value)) return listText(value) ?? stableJson(value)
  if (isAgentsRunResult(value)) return readOutput(agentsFinalOutput(value))
  // An Anthropic or OpenAI SDK stream or tool runner: its last reply, once it has ended.
  assertSdkStreamEnded(value)
  // A LangChain serialized message: the message it serializes.
  const fields = messageFields(value)
  if (fields !== value) return readOutput(fields)
  // A LangGraph state paused at `interrupt()`: no reply yet.
  assertNotInterrupted(value)
  // `withStructuredOutput(..., { includeRaw: true })`: the parsed value, else (parsing failed) the
  // raw message.
  const pair = rawAndParsed(value)
  if (pair) return readOutput(pair.parsed ?? pair.raw)
  const object = value as Loose
  // A LangGraph agent's state with a `responseFormat`: its structured response is its answer.
  const structured = readField(object, 'structuredResponse')
  if (structured !== undefined && Array.isArray(readField(object, 'messages'))) {
    return readOutput(structured)
  }
  const text = readField(object, 'text')
  if (isThenable(text)) throw new UsageError(messages.outputTextIsPromise())
  return (
    chatCompletionText(object) ??
    responsesText(object) ??
    (typeof text === 'string' ? text : undefined) ??
    contentText(readField(object, 'content')) ??
    itemText(object) ??
    geminiText(object) ??
    stateText(object) ??
    notIterable(value) ??
    stableJson(value)
  )
}

/**
 * The text a judge would see, or the empty string for a value that has none (a run stopped for
 * approval, a list rubricate cannot read): for previews of values a scorer, not a judge, reads.
 * @internal
 */
export function textPreview(value: unknown): string {
  try {
    return outputText(value)
  } catch {
    return ''
  }
}

/** True for a Promise or any other object with a `then` method. @internal */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

// A list of entries (messages, items, run items, parts): the last reply. A list of plain data is
// JSON; a list that looks like a trajectory but holds an entry of no known shape is an error, as
// the reply may be in the entry that is not understood.
function listText(list: unknown[]): string | undefined {
  if (list.length === 0) return undefined
  const kinds = list.map(itemKind)
  if (kinds.includes(undefined)) {
    const looksLikeEntries = list.some(
      (item) =>
        typeof (item as Loose | null)?.type === 'string' ||
        typeof (item as Loose | null)?.role === 'string',
    )
    if (looksLikeEntries) throw new UsageError(outputMessages.textUnknownShape(describeFound(list)))
    return undefined
  }
  // A bare list of content parts, e.g. an AI SDK `content` array.
  if (kinds.every((kind) => kind === 'part')) return contentText(list)
  // AI SDK steps (`await result.steps`): the last step's text, as the result's `text` is.
  if (kinds.every((kind) => kind === 'step')) {
    const text = readField(list.at(-1) as Loose, 'text')
    if (typeof text === 'string') return text
  }
  // LangChain chunks of one message (a collected `model.stream()`): the message they make.
  const messages = joinLangChainChunks(list).flatMap((item) => {
    const kind = itemKind(item)
    if (kind === 'message') return [item as Loose]
    const raw = kind === 'run-item' ? (item as Loose).rawItem : undefined
    return itemKind(raw) === 'message' ? [raw as Loose] : []
  })
  return lastText(messages, 'assistant')
}

// An async iterable no reader above understood (a LangGraph stream not collected): refused.
function notIterable(value: object): undefined {
  refuseAsyncIterable(value)
  return undefined
}

// One entry of a list on its own: an Agents SDK run item's message, a Responses message item.
function itemText(object: Loose): string | undefined {
  if (itemKind(object) !== 'run-item') return undefined
  const raw = object.rawItem
  return itemKind(raw) === 'message' ? contentText((raw as Loose).content) : undefined
}

// A Gemini response (`@google/genai` without its `text` getter, or its JSON).
function geminiText(object: Loose): string | undefined {
  const candidates = readField(object, 'candidates')
  if (!Array.isArray(candidates) || candidates.length === 0) return undefined
  const content = (candidates[0] as Loose | undefined)?.content as Loose | undefined
  return typeof content === 'object' && content !== null ? contentText(content.parts) : undefined
}

// A LangGraph state, or any object whose `messages` are a trajectory: its last reply.
function stateText(object: Loose): string | undefined {
  const messages = readField(object, 'messages')
  return Array.isArray(messages) && messages.length > 0 ? listText(messages) : undefined
}

function chatCompletionText(object: Loose): string | undefined {
  const choices = readField(object, 'choices')
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
  // `readField`: an AI SDK 6 result's `output` getter throws when it has no structured output.
  const output = readField(object, 'output')
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
