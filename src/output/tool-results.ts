// The results of an agent's tool calls, by call id, read from the shapes `toolCalls()` reads: AI
// SDK and Mastra steps (`toolResults`), OpenAI chat `tool` messages, LangChain `ToolMessage`s, Responses
// `function_call_output` items, AI SDK `tool-result` parts and UI parts with an `output`. A shape
// without results gives an empty map: a transcript then shows the calls alone.
import { messageFields, messageRole } from './item-kinds'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/**
 * The tool results in a value, by the id of the call they answer. Best effort: what is not found
 * is simply absent.
 * @internal
 */
export function toolResults(value: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>()
  visit(value, found, 0)
  return found
}

function visit(value: unknown, found: Map<string, unknown>, depth: number): void {
  // Results sit at most a few levels down (result > steps > toolResults > part).
  if (depth > 4) return
  if (Array.isArray(value)) {
    for (const item of value) visit(item, found, depth + 1)
    return
  }
  if (!isObject(value)) return
  const result = resultOf(value)
  if (result) {
    found.set(result.id, result.value)
    return
  }
  for (const key of [
    'steps',
    'toolResults',
    'messages',
    'output',
    'content',
    'parts',
    'response',
  ]) {
    const child = read(value, key)
    if (Array.isArray(child) || (key === 'response' && isObject(child))) {
      visit(child, found, depth + 1)
    }
  }
}

function resultOf(original: Loose): { id: string; value: unknown } | undefined {
  const part = messageFields(original) as Loose
  // OpenAI chat: { role: 'tool', tool_call_id, content }; a LangChain ToolMessage, live or serialized
  if (messageRole(part) === 'tool' && typeof part.tool_call_id === 'string') {
    return { id: part.tool_call_id, value: part.content }
  }
  // Responses: { type: 'function_call_output', call_id, output }
  if (part.type === 'function_call_output' && typeof part.call_id === 'string') {
    return { id: part.call_id, value: part.output }
  }
  // Mastra chunk: { type: 'tool-result', payload: { toolCallId, result } }
  const payload = part.payload
  if (part.type === 'tool-result' && isObject(payload) && typeof payload.toolCallId === 'string') {
    return { id: payload.toolCallId, value: payload.result ?? payload.output }
  }
  // AI SDK: { type: 'tool-result', toolCallId, output } (result before v5); a UI part with output
  if (typeof part.toolCallId === 'string') {
    if (part.type === 'tool-result' || (part.type === undefined && 'result' in part)) {
      return { id: part.toolCallId, value: 'output' in part ? part.output : part.result }
    }
    if (
      typeof part.type === 'string' &&
      part.type.startsWith('tool-') &&
      part.type !== 'tool-call' &&
      'output' in part
    ) {
      return { id: part.toolCallId, value: part.output }
    }
  }
  return undefined
}

// Result objects may expose fields as getters (the AI SDK does); a throwing getter counts as absent.
function read(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
