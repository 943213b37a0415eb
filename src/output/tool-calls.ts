// The tool calls an agent made, read from the shapes SDKs and frameworks return: OpenAI chat
// completions and Responses objects, OpenAI Agents SDK results and items, AI SDK results and
// steps, Mastra results, LangChain messages and LangGraph states, Anthropic messages, Gemini
// responses, and lists of any of their messages. Framework-agnostic: the matchers, the eval
// scorers and any scorer of the user's can use it.
import { UsageError } from '../errors'
import { messages } from '../messages'
import { agentsRunItems, isAgentsRunResult } from './agents-sdk'
import { conversationReplies } from './conversation-output'
import {
  describeFound,
  isCallItemType,
  isLangChainMessage,
  itemKind,
  messageFields,
} from './item-kinds'
import { joinLangChainChunks } from './langchain-chunks'
import { langGraphState, rawAndParsed, refuseAsyncIterable } from './langgraph-streams'
import { outputMessages } from './output-messages'
import { isThenable } from './output-text'
import { assertSdkStreamEnded } from './sdk-streams'

type Loose = Record<string, unknown>

/** One tool call, whatever shape it came in. */
export interface ToolCall {
  /** The tool's name. */
  name: string
  /** The arguments: parsed from JSON when they came as a JSON string, else as given. */
  args: unknown
  /** The call's id (`call_id`, `callId`, `toolCallId`), when the shape has one. */
  id?: string | undefined
  /** The agent that made the call, when the result says (an OpenAI Agents SDK result's items). */
  agent?: string | undefined
  /**
   * For a handoff (the Agents SDK's `transfer_to_<agent>` calls): the agent the conversation was
   * handed to.
   */
  handoffTo?: string | undefined
}

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/**
 * The tool calls in a value, in the order they were made. Recognised:
 * - an OpenAI Agents SDK `RunResult` or finished `StreamedRunResult` (its `newItems`: each call
 *   with the agent that made it, each handoff with the agent it handed to), its `newItems`,
 *   `history` or `output`;
 * - an OpenAI chat completion (the first choice's `tool_calls`), a Responses object (its
 *   `*_call` output items) or its `output`;
 * - an AI SDK `generateText` result (the `toolCalls` of every step), its steps or its `content`;
 * - a Mastra agent result (every step's `toolCalls`, else its `toolCalls`);
 * - a LangChain `AIMessage` (its `tool_calls`), a LangGraph state (its `messages`);
 * - an Anthropic message (`tool_use` blocks), a Gemini response (`functionCall` parts);
 * - a list of messages or items of any of these shapes.
 *
 * Anything else, and a list with any entry of no known shape, throws `RUBRICATE_USAGE` naming
 * what was found: reading it as "no calls" would let `.not.toHaveCalledTool()` pass by accident.
 * So does a streaming result that has not finished (an AI SDK or Mastra stream, an Agents SDK
 * `StreamedRunResult`, an Anthropic or OpenAI SDK stream or tool runner).
 *
 * @example
 * toolCalls(await generateText({ model, tools, prompt })) // [{ name: 'lookup_order', args: { id: 'A1' }, id: 'call_1' }]
 */
export function toolCalls(value: unknown): ToolCall[] {
  if (isThenable(value)) throw new UsageError(messages.toolCallsPromise())
  const found = readCalls(value)
  if (found === undefined)
    throw new UsageError(outputMessages.toolCallsUnknownShape(describeFound(value)))
  return found
}

function readCalls(value: unknown): ToolCall[] | undefined {
  // A multi-turn row's conversation: the calls of every turn's reply, in order; a reply that is
  // text made none.
  const replies = conversationReplies(value)
  if (replies) {
    return replies.flatMap((reply) =>
      typeof reply === 'object' && reply !== null ? toolCalls(reply) : [],
    )
  }
  // LangGraph's streams, events and snapshots: the state they stand for.
  const state = langGraphState(value)
  if (state !== undefined) return readCalls(state)
  if (Array.isArray(value)) return listCalls(value)
  if (!isObject(value)) return undefined
  if (isAgentsRunResult(value)) return listCalls(agentsRunItems(value))
  // `withStructuredOutput(..., { includeRaw: true })`: the calls are the raw message's.
  const pair = rawAndParsed(value)
  if (pair) return readCalls(pair.raw)
  // An Anthropic or OpenAI SDK stream or tool runner: its `messages`, once it has ended.
  assertSdkStreamEnded(value)
  // One message or item of a list: an AIMessage, an Anthropic message, a Responses item.
  if (itemKind(value) !== undefined && itemKind(value) !== 'step') return listCalls([value])
  const steps = field(value, 'steps')
  if (isThenable(steps)) throw new UsageError(messages.toolCallsStreaming())
  if (Array.isArray(steps) && steps.length > 0 && steps.every(isStep)) return stepCalls(steps)
  const choices = field(value, 'choices')
  if (Array.isArray(choices)) {
    const message = (choices[0] as Loose | undefined)?.message
    return isObject(message) ? messageCalls(message) : []
  }
  const output = field(value, 'output')
  if ((value.object === 'response' || 'output_text' in value) && Array.isArray(output)) {
    return listCalls(output)
  }
  const candidates = field(value, 'candidates')
  if (Array.isArray(candidates)) {
    const content = (candidates[0] as Loose | undefined)?.content
    return isObject(content) ? messageCalls(content) : []
  }
  const calls = field(value, 'toolCalls')
  if (isThenable(calls)) throw new UsageError(messages.toolCallsStreaming())
  if (Array.isArray(calls)) return calls.flatMap((call) => partCall(call) ?? [])
  // An AI SDK or Mastra result with no steps and no toolCalls, or a LangGraph state: its messages.
  const response = field(value, 'response')
  const responseMessages = isObject(response) ? field(response, 'messages') : undefined
  if (Array.isArray(responseMessages)) return listCalls(responseMessages)
  const stateMessages = field(value, 'messages')
  if (Array.isArray(stateMessages)) return listCalls(stateMessages)
  refuseAsyncIterable(value)
  return undefined
}

function isStep(step: unknown): step is Loose {
  return itemKind(step) === 'step'
}

function stepCalls(steps: Loose[]): ToolCall[] {
  return steps.flatMap((step) =>
    (field(step, 'toolCalls') as unknown[]).flatMap((call) => partCall(call) ?? []),
  )
}

// A list of steps, messages, items, run items or content parts, in any mix; an empty list holds
// no calls. Any entry of no known shape makes the whole list unreadable: skipping it could hide
// the one call the test asks about. LangChain chunks of one message are read joined.
function listCalls(list: readonly unknown[]): ToolCall[] | undefined {
  const calls: ToolCall[] = []
  const handoffs = new Map<string, string>()
  if (list.some((entry) => itemKind(entry) === undefined)) return undefined
  for (const entry of joinLangChainChunks(list)) {
    const kind = itemKind(entry)
    if (kind === undefined) return undefined
    const item = entry as Loose
    if (kind === 'step') calls.push(...stepCalls([item]))
    else if (kind === 'message') calls.push(...messageCalls(item))
    else if (kind === 'run-item') runItem(item, calls, handoffs)
    else if (kind === 'item') {
      const call = itemCall(item)
      if (call) calls.push(call)
      else noteHandoff(item, handoffs)
    } else {
      const call = partCall(item)
      if (call) calls.push(call)
    }
  }
  if (handoffs.size === 0) return calls
  return calls.map((call) => {
    const target = call.id === undefined ? undefined : handoffs.get(call.id)
    return target === undefined || call.handoffTo !== undefined
      ? call
      : { ...call, handoffTo: target }
  })
}

// An Agents SDK run item: a call (with the agent that made it), or a handoff's output (naming the
// agent handed to, matched to its call by id).
function runItem(item: Loose, calls: ToolCall[], handoffs: Map<string, string>): void {
  const raw = item.rawItem
  if (item.type === 'handoff_output_item') {
    const id = callIdOf(raw)
    const target = agentName(item.targetAgent)
    if (id !== undefined && target !== undefined) handoffs.set(id, target)
    return
  }
  if (item.type === 'tool_approval_item') return // its call is a tool_call_item of its own
  const call = itemCall(raw)
  if (!call) return
  const agent = agentName(item.agent)
  calls.push(agent === undefined ? call : { ...call, agent })
}

// A handoff's output as a plain item (the Agents SDK's `history`): `{"assistant":"<agent>"}`.
function noteHandoff(item: Loose, handoffs: Map<string, string>): void {
  if (item.type !== 'function_call_result' && item.type !== 'function_call_output') return
  const id = callIdOf(item)
  const output = isObject(item.output) ? item.output.text : item.output
  if (id === undefined || typeof output !== 'string' || !output.startsWith('{"assistant"')) return
  try {
    const parsed = JSON.parse(output) as Loose
    if (typeof parsed.assistant === 'string' && Object.keys(parsed).length === 1) {
      handoffs.set(id, parsed.assistant)
    }
  } catch {
    // Not a handoff's output after all.
  }
}

function agentName(agent: unknown): string | undefined {
  const name = isObject(agent) ? agent.name : undefined
  return typeof name === 'string' ? name : undefined
}

function callIdOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined
  const id = item.callId ?? item.call_id ?? item.id
  return typeof id === 'string' ? id : undefined
}

// One message of any shape: a LangChain message's `tool_calls` and `invalid_tool_calls` (its
// content may repeat them as provider blocks; a message serialized before LangChain had
// `tool_calls` keeps them in `additional_kwargs` in OpenAI's shape), OpenAI's `tool_calls`, then
// tool parts in `content` or `parts`.
function messageCalls(original: Loose): ToolCall[] {
  const message = messageFields(original) as Loose
  const langChain = isLangChainMessage(message)
  if (langChain) return langChainCalls(message)
  const listed = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const calls: ToolCall[] = []
  for (const call of listed) {
    const found = partCall(call)
    if (found) calls.push(found)
  }
  const content = message.content
  const parts = Array.isArray(content)
    ? content
    : isObject(content) && Array.isArray(content.parts)
      ? content.parts // Mastra's stored message: { format: 2, parts }
      : Array.isArray(message.parts)
        ? message.parts // AI SDK UI message, Gemini content
        : []
  for (const part of parts) {
    const found = partCall(part)
    if (found) calls.push(found)
  }
  return calls
}

// A LangChain message's calls: `tool_calls`, and the calls whose arguments were not JSON, which
// LangChain keeps apart in `invalid_tool_calls` with their raw arguments (a call all the same: left
// out, `.not.toHaveCalledTool()` would pass on it). In the order the provider sent them, when
// `additional_kwargs.tool_calls` (OpenAI's shape) says it.
function langChainCalls(message: Loose): ToolCall[] {
  const extra = message.additional_kwargs
  const provider = isObject(extra) && Array.isArray(extra.tool_calls) ? extra.tool_calls : []
  if (!Array.isArray(message.tool_calls)) {
    return provider.flatMap((call) => partCall(call) ?? [])
  }
  const invalid = Array.isArray(message.invalid_tool_calls) ? message.invalid_tool_calls : []
  const calls = [
    ...message.tool_calls.flatMap((call) => partCall(call) ?? []),
    ...invalid.map(invalidCall),
  ]
  const order = provider.map(callIdOf)
  const position = (found: ToolCall): number =>
    found.id === undefined ? -1 : order.indexOf(found.id)
  if (calls.some((found) => position(found) < 0)) return calls
  return calls.sort((a, b) => position(a) - position(b))
}

// LangChain's { type: 'invalid_tool_call', name, args: '<raw text>', id, error }
function invalidCall(entry: unknown): ToolCall {
  const item = isObject(entry) ? entry : {}
  if (typeof item.name !== 'string' || item.name === '') {
    throw new UsageError(outputMessages.invalidCallWithoutName())
  }
  const raw = typeof item.args === 'string' ? item.args : item.args === undefined ? '' : item.args
  return typeof item.id === 'string'
    ? { name: item.name, args: raw, id: item.id }
    : { name: item.name, args: raw }
}

// A Responses or Agents SDK protocol item that is a tool call: `function_call` and the hosted and
// built-in tools' `*_call` items (named by their `name`, else by their type: `web_search_call` is
// `web_search`).
function itemCall(item: unknown): ToolCall | undefined {
  if (!isObject(item) || typeof item.type !== 'string' || !isCallItemType(item.type)) {
    return undefined
  }
  const name = typeof item.name === 'string' ? item.name : item.type.replace(/_call$/, '')
  const args =
    'arguments' in item
      ? item.arguments
      : 'args' in item
        ? item.args // LangChain's { type: 'tool_call', name, args }
        : 'input' in item
          ? item.input
          : 'action' in item
            ? item.action
            : 'operation' in item
              ? item.operation
              : 'code' in item
                ? item.code
                : {}
  return call(name, args, item.callId ?? item.call_id ?? item.id)
}

// One call of any of the shapes; undefined for a part that is not a tool call (text, results).
function partCall(part: unknown): ToolCall | undefined {
  if (!isObject(part)) return undefined
  // OpenAI chat: { id, type: 'function', function: { name, arguments } }
  const fn = part.function
  if (isObject(fn) && typeof fn.name === 'string') return call(fn.name, fn.arguments, part.id)
  // LangChain: { type: 'tool_call', name, args, id }; Anthropic: { type: 'tool_use', name, input, id }
  if ((part.type === 'tool_call' || part.type === 'tool_use') && typeof part.name === 'string') {
    return call(part.name, part.type === 'tool_use' ? part.input : part.args, part.id)
  }
  if (typeof part.type === 'string' && isCallItemType(part.type)) return itemCall(part)
  // Gemini: { functionCall: { name, args, id? } }
  const functionCall = part.functionCall
  if (isObject(functionCall) && typeof functionCall.name === 'string') {
    return call(functionCall.name, functionCall.args ?? {}, functionCall.id)
  }
  // Mastra stream chunk: { type: 'tool-call', payload: { toolCallId, toolName, args } }
  const payload = part.payload
  if (part.type === 'tool-call' && isObject(payload) && typeof payload.toolName === 'string') {
    return call(payload.toolName, payload.args ?? payload.input, payload.toolCallId)
  }
  // AI SDK v4 and Mastra UI parts: { type: 'tool-invocation', toolInvocation: { toolName, args } }
  const invocation = part.toolInvocation
  if (isObject(invocation) && typeof invocation.toolName === 'string') {
    return call(invocation.toolName, invocation.args, invocation.toolCallId)
  }
  // AI SDK: { type: 'tool-call', toolCallId, toolName, input } (args before v5), dynamic tools too
  if (typeof part.toolName === 'string' && (part.type === undefined || isToolPart(part.type))) {
    return call(part.toolName, 'input' in part ? part.input : part.args, part.toolCallId)
  }
  // AI SDK v5 UI message part: { type: 'tool-lookup_order', toolCallId, input }
  // (A tool-result part has a `toolName`; a UI part's name is in its type.)
  if (
    typeof part.type === 'string' &&
    part.type.startsWith('tool-') &&
    'toolCallId' in part &&
    !('toolName' in part)
  ) {
    return call(part.type.slice('tool-'.length), part.input, part.toolCallId)
  }
  return undefined
}

function isToolPart(type: unknown): boolean {
  return type === 'tool-call' || type === 'dynamic-tool'
}

function call(name: string, args: unknown, id: unknown): ToolCall {
  const parsed = typeof args === 'string' ? parseArgs(args) : args
  return typeof id === 'string' ? { name, args: parsed, id } : { name, args: parsed }
}

function parseArgs(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

// Result objects may expose fields as getters (the AI SDK does); a throwing getter counts as absent.
function field(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
