// What one entry of an agent's trajectory is, across the frameworks rubricate reads: a chat
// message (OpenAI, AI SDK, Mastra, Anthropic, Gemini, LangChain), a Responses or OpenAI Agents SDK
// protocol item, an Agents SDK run item, an AI SDK step or content part. One classifier for tool
// calls and text, so a list that one of them understands the other does too, and an entry that
// neither knows is an error in both instead of being skipped (an empty trajectory by accident).

type Loose = Record<string, unknown>

/** What an entry of a list is. @internal */
export type ItemKind = 'message' | 'item' | 'run-item' | 'part' | 'step'

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

// LangChain messages carry their kind in `type` rather than a `role`.
const LANGCHAIN_ROLES: Readonly<Record<string, string>> = {
  ai: 'assistant',
  human: 'user',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
}

// Responses API and Agents SDK protocol items that are not tool calls. Every `*_call` item is a
// tool call, and every `*_output` / `*_result` item a tool's answer (see `isCallItemType`).
const OTHER_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'compaction',
  'item_reference',
  'unknown', // the Agents SDK's own item for a provider item it does not understand
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
])

// Content parts of messages and AI SDK results (`content`), beside the `tool-*`, `data-*` and
// `source-*` families of AI SDK UI parts.
const PART_TYPES = new Set([
  'text',
  'output_text',
  'input_text',
  'input_image',
  'input_file',
  'refusal',
  'reasoning',
  'redacted_reasoning',
  'thinking',
  'redacted_thinking',
  'image',
  'file',
  'audio',
  'source',
  'step-start',
  'tool-call',
  'tool-result',
  'tool-error',
  'dynamic-tool',
  'tool_call',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
])

// The events of an AI SDK `fullStream` and a Mastra stream that are not content parts (`text-*`,
// `reasoning-*` and `tool-*` are matched by prefix).
const STREAM_PART_TYPES = new Set([
  'start',
  'finish',
  'start-step',
  'finish-step',
  'step-finish',
  'error',
  'abort',
  'raw',
])

// LangChain's serialized messages (`JSON.parse(JSON.stringify(message))`, the messages of a
// LangGraph checkpoint): `{ lc: 1, type: 'constructor', id: [..., 'AIMessage'], kwargs }`, whose
// kwargs are the message's own fields. The class names the kind: `ChatMessage` carries a `role`.
const SERIALIZED_MESSAGE_TYPES: Readonly<Record<string, string>> = {
  AIMessage: 'ai',
  HumanMessage: 'human',
  SystemMessage: 'system',
  ToolMessage: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'generic',
}

/**
 * The class a LangChain serialized object names (`AIMessage`, `AIMessageChunk`...), or `undefined`
 * for a value that is not one.
 * @internal
 */
export function serializedLangChainClass(value: unknown): string | undefined {
  if (!isObject(value) || value.lc !== 1 || value.type !== 'constructor') return undefined
  const id = value.id
  const name = Array.isArray(id) ? id.at(-1) : undefined
  return typeof name === 'string' && isObject(value.kwargs) ? name : undefined
}

/**
 * The fields of a message: a LangChain serialized message read as the message it serializes (its
 * kwargs, with the `type` a live message of its class has), a LangChain stored message (`{ type,
 * data }`, what chat message histories keep) as its data with its type, any other value as it is.
 * @internal
 */
export function messageFields(value: unknown): unknown {
  if (!isObject(value)) return value
  const name = serializedLangChainClass(value)
  if (name !== undefined) {
    const type = SERIALIZED_MESSAGE_TYPES[name.replace(/Chunk$/, '')]
    return type === undefined ? value : { ...(value.kwargs as Loose), type }
  }
  const data = value.data
  const stored =
    typeof value.type === 'string' &&
    value.type in LANGCHAIN_ROLES &&
    !('content' in value) &&
    isObject(data) &&
    'content' in data
  return stored ? { ...data, type: value.type } : value
}

/** The role of a message: its `role`, or a LangChain message's `type` as a role. @internal */
export function messageRole(message: unknown): string | undefined {
  const value = messageFields(message)
  if (!isObject(value)) return undefined
  if (typeof value.role === 'string') return value.role === 'model' ? 'assistant' : value.role
  const type = value.type
  if (typeof type === 'string' && type in LANGCHAIN_ROLES && 'content' in value) {
    return LANGCHAIN_ROLES[type]
  }
  return undefined
}

/**
 * True for a LangChain message (`AIMessage`, `HumanMessage`, `ToolMessage`...), live or
 * serialized. @internal
 */
export function isLangChainMessage(message: unknown): boolean {
  const value = messageFields(message)
  return (
    isObject(value) &&
    typeof value.role !== 'string' &&
    typeof value.type === 'string' &&
    value.type in LANGCHAIN_ROLES &&
    'content' in value
  )
}

/** True for a protocol item type that is a tool call (`function_call`, `web_search_call`...). @internal */
export function isCallItemType(type: string): boolean {
  return type.endsWith('_call') || type === 'program'
}

/** True for an Agents SDK run item (`tool_call_item`, `message_output_item`...). @internal */
export function isRunItem(value: unknown): value is Loose & { type: string } {
  return (
    isObject(value) &&
    typeof value.type === 'string' &&
    value.type.endsWith('_item') &&
    'rawItem' in value
  )
}

/**
 * What `value` is as an entry of a trajectory, or `undefined` when it is none of the shapes
 * rubricate reads: a message has a role (or is a LangChain message), an item a Responses or Agents
 * SDK protocol `type`, a run item a `*_item` type and its `rawItem`, a step its `toolCalls`.
 * @internal
 */
export function itemKind(value: unknown): ItemKind | undefined {
  if (!isObject(value)) return undefined
  if (messageRole(value) !== undefined) return 'message'
  if (isRunItem(value)) return 'run-item'
  const type = value.type
  if (typeof type !== 'string') return Array.isArray(value.toolCalls) ? 'step' : undefined
  if (OTHER_ITEM_TYPES.has(type) || isCallItemType(type)) return 'item'
  if (type.endsWith('_output') || type.endsWith('_result')) return 'item'
  if (PART_TYPES.has(type)) return 'part'
  if (/^(tool|data|source|reasoning|text)-/.test(type)) return 'part'
  if (STREAM_PART_TYPES.has(type)) return 'part'
  return undefined
}

/**
 * A short description of what was found, for a message: the class, the keys, and for a list the
 * first entry that is none of the shapes understood, with its position and `type`.
 * @internal
 */
export function describeFound(value: unknown): string {
  if (Array.isArray(value)) {
    const index = value.findIndex((item) => itemKind(item) === undefined)
    const entries = `a list of ${value.length} ${value.length === 1 ? 'entry' : 'entries'}`
    if (index < 0) return entries
    return `${entries} whose entry ${index} is ${describeOne(value[index])}`
  }
  // A state whose `messages` hold the entry not understood (a LangGraph state): name that entry.
  const messages = isObject(value) ? readMessages(value) : undefined
  if (Array.isArray(messages) && messages.some((item) => itemKind(item) === undefined)) {
    return `${describeOne(value)}, whose "messages" are ${describeFound(messages)}`
  }
  return describeOne(value)
}

function readMessages(object: Loose): unknown {
  try {
    return object.messages
  } catch {
    return undefined
  }
}

function describeOne(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value !== 'object')
    return `${typeof value} ${JSON.stringify(String(value)).slice(0, 40)}`
  const serialized = serializedLangChainClass(value)
  if (serialized !== undefined) return `a serialized LangChain ${JSON.stringify(serialized)}`
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name
  const kind =
    typeof name === 'string' && name !== 'Object' && name !== '' ? `a ${name}` : 'an object'
  const type = (value as Loose).type
  const keys = Object.keys(value).slice(0, 8)
  const typed = typeof type === 'string' ? ` of type ${JSON.stringify(type)}` : ''
  return `${kind}${typed} with keys ${keys.length > 0 ? keys.map((key) => `"${key}"`).join(', ') : '(none)'}`
}
