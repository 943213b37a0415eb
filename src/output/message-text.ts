// Text of chat messages and their content, across the shapes that SDKs and frameworks use:
// OpenAI chat (`content` string or parts), OpenAI Responses (`output_text` parts), the AI SDK
// (`content` parts, UI messages with `parts`), Mastra (`content: { parts, content }`), LangChain
// (a `type` of `ai`, `human`... in place of a role) and Gemini (`parts`, role `model`).
import { messageFields, messageRole } from './item-kinds'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

// Part types whose `text` is what the model said. Reasoning parts also carry `text`, but they are
// the model's scratchpad, not its answer, so they are left out.
const TEXT_PART_TYPES = new Set([undefined, 'text', 'output_text', 'input_text'])

/**
 * The text of a message's content: a string as is; text parts joined with nothing between them
 * (as the AI SDK's `text` and OpenAI's `output_text` join them); a refusal's text. Undefined when
 * the content holds no text (only images or tool calls, say).
 * @internal
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    const texts: string[] = []
    for (const part of content) {
      const text = partText(part)
      if (text !== undefined) texts.push(text)
    }
    return texts.length > 0 ? texts.join('') : undefined
  }
  if (isObject(content)) {
    // Mastra's stored message: { format: 2, parts: [...], content?: string }
    if (typeof content.content === 'string') return content.content
    if (Array.isArray(content.parts)) return contentText(content.parts)
  }
  return undefined
}

function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part
  if (!isObject(part)) return undefined
  if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal
  if (TEXT_PART_TYPES.has(part.type as string | undefined) && typeof part.text === 'string') {
    return part.text
  }
  return undefined
}

/** True for a chat message of any of the shapes above (a `role`, or a LangChain message). @internal */
export function isMessage(value: unknown): value is Loose {
  return isObject(value) && messageRole(value) !== undefined
}

/** True for a non-empty array whose items are all chat messages. @internal */
export function isMessageList(value: unknown): value is Loose[] {
  return Array.isArray(value) && value.length > 0 && value.every(isMessage)
}

/**
 * The text of one message: its `content`, else its `parts` (AI SDK UI messages); a LangChain
 * serialized message's from its kwargs.
 * @internal
 */
export function messageText(original: Loose): string | undefined {
  const message = messageFields(original) as Loose
  return contentText(message.content) ?? contentText(message.parts)
}

/** The text of the last message with `role` that has any text. @internal */
export function lastText(messages: Loose[], role: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message === undefined || messageRole(message) !== role) continue
    const text = messageText(message)
    if (text !== undefined) return text
  }
  return undefined
}

/** The text of the first message with `role` that has any text. @internal */
export function firstText(messages: Loose[], role: string): string | undefined {
  for (const message of messages) {
    if (messageRole(message) !== role) continue
    const text = messageText(message)
    if (text !== undefined) return text
  }
  return undefined
}
