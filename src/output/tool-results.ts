// The results of an agent's tool calls, read from the shapes `toolCalls()` reads: AI SDK and
// Mastra steps (`toolResults`), AI SDK response messages (`tool-result` parts, their output
// unwrapped), OpenAI chat `tool` messages, LangChain `ToolMessage`s, Responses
// `function_call_output` items, OpenAI Agents SDK results (`function_call_result` items, run items
// and `newItems`), Anthropic `tool_result` blocks, Gemini `functionResponse` parts and UI parts
// with an `output`. A shape without results gives empty maps: a transcript then shows the calls
// alone.
import { isAgentsRunResult } from './agents-sdk'
import { conversationReplies } from './conversation-output'
import { messageFields, messageRole } from './item-kinds'
import { langGraphState } from './langgraph-streams'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/** The tool results found in a value. @internal */
export interface FoundToolResults {
  /** By the id of the call they answer. */
  byId: Map<string, unknown>
  /**
   * Results that name their tool but carry no call id (a Gemini `functionResponse` without `id`),
   * by tool name in the order they came: the n-th answers the n-th call of that name without an id.
   */
  byName: Map<string, unknown[]>
}

/**
 * The tool results in a value. Best effort: what is not found is simply absent.
 * @internal
 */
export function toolResults(value: unknown): FoundToolResults {
  const found: FoundToolResults = { byId: new Map(), byName: new Map() }
  // LangGraph's streams, events and snapshots: the state they stand for.
  visit(langGraphState(value) ?? value, found, 0)
  return found
}

function visit(value: unknown, found: FoundToolResults, depth: number): void {
  // Results sit at most a few levels down (result > steps > toolResults > part).
  if (depth > 4) return
  // A multi-turn row's conversation: the results in every turn's reply.
  const replies = conversationReplies(value)
  if (replies) {
    for (const reply of replies) visit(reply, found, 0)
    return
  }
  if (Array.isArray(value)) {
    for (const item of value) visit(item, found, depth + 1)
    return
  }
  if (!isObject(value)) return
  const result = resultOf(value)
  if (result && 'id' in result) {
    found.byId.set(result.id, result.value)
    return
  }
  if (result) {
    const list = found.byName.get(result.name) ?? []
    list.push(result.value)
    found.byName.set(result.name, list)
    return
  }
  // An Agents SDK RunResult: its run items (a finished run's; reading them is `toolCalls()`'s job
  // to refuse for an unfinished one, so a getter that throws counts as no items here).
  if (isAgentsRunResult(value)) {
    visit(read(value, 'newItems'), found, depth + 1)
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

function resultOf(
  original: Loose,
): { id: string; value: unknown } | { name: string; value: unknown } | undefined {
  const part = messageFields(original) as Loose
  // Agents SDK run items: a tool's or a handoff's output, its protocol item in `rawItem`
  if (
    (part.type === 'tool_call_output_item' || part.type === 'handoff_output_item') &&
    isObject(part.rawItem)
  ) {
    return resultOf(part.rawItem)
  }
  // Agents SDK protocol item: { type: 'function_call_result', callId, output: { type: 'text', text } }
  if (part.type === 'function_call_result' && typeof part.callId === 'string') {
    return { id: part.callId, value: agentsOutput(part.output) }
  }
  // Anthropic: { type: 'tool_result', tool_use_id, content: string | blocks }
  if (part.type === 'tool_result' && typeof part.tool_use_id === 'string') {
    return { id: part.tool_use_id, value: anthropicContent(part.content) }
  }
  // Gemini: { functionResponse: { name, id?, response: { output } | { error } | anything } }
  const response = part.functionResponse
  if (isObject(response) && typeof response.name === 'string') {
    const value = geminiResponse(response.response)
    return typeof response.id === 'string'
      ? { id: response.id, value }
      : { name: response.name, value }
  }
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
      return {
        id: part.toolCallId,
        value: 'output' in part ? aiSdkOutput(part.output) : part.result,
      }
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

// An AI SDK response message wraps a tool's output as `{ type: 'text' | 'json' | 'error-text' |
// 'error-json' | 'content', value }`; a step's `toolResults` hold it bare.
function aiSdkOutput(output: unknown): unknown {
  if (!isObject(output) || !('value' in output) || Object.keys(output).length !== 2) return output
  const wrapped = ['text', 'json', 'error-text', 'error-json', 'content']
  return typeof output.type === 'string' && wrapped.includes(output.type) ? output.value : output
}

// The Agents SDK keeps a tool's output as `{ type: 'text', text }` (or a string, or other parts).
function agentsOutput(output: unknown): unknown {
  return isObject(output) && output.type === 'text' && typeof output.text === 'string'
    ? output.text
    : output
}

// Anthropic's tool_result content: a string, or blocks whose text blocks are the result.
function anthropicContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content
  const texts = content.filter((block) => isObject(block) && block.type === 'text')
  return texts.length === content.length && texts.length > 0
    ? texts.map((block) => (block as Loose).text).join('\n')
    : content
}

// Gemini's convention: the function's output under `output`, its error under `error`; otherwise
// the whole response is the output.
function geminiResponse(response: unknown): unknown {
  return isObject(response) && 'output' in response ? response.output : response
}

// Result objects may expose fields as getters (the AI SDK does); a throwing getter counts as absent.
function read(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
