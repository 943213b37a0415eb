// Mastra's `Processor` contract for the judge's processors, beside rubricate's text form: a
// processor written for a Mastra agent (`processInput` / `processOutputResult` over `{ messages }`
// of Mastra's stored messages, `processAPIError` returning `{ retry }`) works unchanged. Mastra is
// not imported: its message format (`MastraDBMessage`, format 2) is built and read here.

type Loose = Record<string, unknown>

/** A Mastra stored message (`MastraDBMessage`), as far as the judge's processors need it. @internal */
export interface MastraMessage {
  id: string
  role: 'user' | 'assistant' | 'system'
  createdAt: Date
  content: { format: 2; parts: { type: 'text'; text: string }[]; content?: string | undefined }
}

// Hooks and fields only Mastra's Processor has; rubricate's text form has `id` and the three hooks.
const MASTRA_ONLY = [
  'name',
  'description',
  'processInputStep',
  'processOutputStream',
  'processOutputStep',
  'processLLMRequest',
  'processLLMResponse',
  '__registerMastra',
]

/**
 * True for a processor written for Mastra: an instance of a class (Mastra's own processors and the
 * `class X implements Processor` its docs show), or an object with a field only Mastra's
 * `Processor` has (`name`, `processInputStep`...). Such a processor's `processInput` is given
 * Mastra's stored messages; a plain `{ id?, processInput }` object gets rubricate's
 * `{ role, content }` messages.
 * @internal
 */
export function isMastraProcessor(processor: object): boolean {
  const proto = Object.getPrototypeOf(processor)
  if (proto !== Object.prototype && proto !== null) return true
  return MASTRA_ONLY.some((key) => key in processor)
}

// Not the time of the call: no judge request may depend on when it ran (cassette keys).
const EPOCH = new Date(0)

/** One Mastra stored message holding `text`. @internal */
export function mastraMessage(
  id: string,
  role: MastraMessage['role'],
  text: string,
): MastraMessage {
  return {
    id,
    role,
    createdAt: EPOCH,
    content: { format: 2, parts: [{ type: 'text', text }], content: text },
  }
}

/**
 * A stand-in for Mastra's `MessageList` around `messages`: a processor that mutates the messages
 * in place and returns the list it was given is read back from them. @internal
 */
export function messageListOf(messages: MastraMessage[]): {
  get: { all: { db(): MastraMessage[] } }
} {
  return { get: { all: { db: () => messages } } }
}

/**
 * The messages a Mastra `processInput` or `processOutputResult` returned: a list of messages,
 * `{ messages, systemMessages }`, or the message list it was given (`given` then holds the
 * messages as it left them). `undefined` for anything else. @internal
 */
export function returnedMessages(
  value: unknown,
  list: object,
  given: MastraMessage[],
): { messages: unknown[]; systemMessages?: unknown[] | undefined } | undefined {
  if (value === list) return { messages: given }
  if (Array.isArray(value)) return { messages: value }
  const object = value as Loose | null
  if (typeof object === 'object' && object !== null && Array.isArray(object.messages)) {
    return {
      messages: object.messages,
      systemMessages: Array.isArray(object.systemMessages) ? object.systemMessages : undefined,
    }
  }
  return undefined
}

/**
 * The text of a Mastra message (its text parts joined, else its `content` string) or of a plain
 * `{ role, content: string }` message; `undefined` when it holds no text. @internal
 */
export function mastraMessageText(message: unknown): string | undefined {
  const content = (message as Loose | null)?.content
  if (typeof content === 'string') return content
  if (typeof content !== 'object' || content === null) return undefined
  const parts = (content as Loose).parts
  if (Array.isArray(parts)) {
    const texts = parts.flatMap((part) =>
      (part as Loose | null)?.type === 'text' && typeof (part as Loose).text === 'string'
        ? [(part as Loose).text as string]
        : [],
    )
    if (texts.length > 0) return texts.join('')
  }
  const text = (content as Loose).content
  return typeof text === 'string' ? text : undefined
}

/** The role of a returned message, for putting the judge's request back together. @internal */
export function mastraRole(message: unknown): unknown {
  return (message as Loose | null)?.role
}
