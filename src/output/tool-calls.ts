// The tool calls an agent made, read from the shapes SDKs and frameworks return: OpenAI chat
// completions and Responses objects, AI SDK results and steps, Mastra results, and message lists
// of any of them. Framework-agnostic: the matchers and any scorer can use it.
import { UsageError } from '../errors'
import { messages } from '../messages'
import { isThenable } from './output-text'

type Loose = Record<string, unknown>

/** One tool call, whatever shape it came in. */
export interface ToolCall {
  /** The tool's name. */
  name: string
  /** The arguments: parsed from JSON when they came as a JSON string, else as given. */
  args: unknown
  /** The call's id (`call_id`, `toolCallId`), when the shape has one. */
  id?: string | undefined
}

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/**
 * The tool calls in a value, in the order they were made. Recognised:
 * - an OpenAI chat completion (the first choice's `tool_calls`);
 * - an OpenAI Responses object (its `function_call` output items);
 * - an AI SDK `generateText` result (the `toolCalls` of every step), or its list of steps;
 * - a Mastra agent result (every step's `toolCalls`, else its `toolCalls`);
 * - a list of messages: OpenAI chat (`tool_calls`), Responses input items (`function_call`), AI SDK
 *   model messages (`tool-call` parts) and UI messages (`tool-<name>` parts), Mastra messages
 *   (`tool-invocation` parts).
 *
 * A streaming result whose steps are not known yet (the AI SDK's `streamText`) and a value of no
 * known shape throw `RUBRICATE_USAGE`, saying what to pass instead.
 *
 * @example
 * toolCalls(await generateText({ model, tools, prompt })) // [{ name: 'lookup_order', args: { id: 'A1' }, id: 'call_1' }]
 */
export function toolCalls(value: unknown): ToolCall[] {
  if (isThenable(value)) throw new UsageError(messages.toolCallsPromise())
  const found = readCalls(value)
  if (found === undefined) throw new UsageError(messages.toolCallsUnknownShape(value))
  return found
}

function readCalls(value: unknown): ToolCall[] | undefined {
  if (Array.isArray(value)) return listCalls(value)
  if (!isObject(value)) return undefined
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
    return output.flatMap((item) => itemCall(item) ?? [])
  }
  const calls = field(value, 'toolCalls')
  if (isThenable(calls)) throw new UsageError(messages.toolCallsStreaming())
  if (Array.isArray(calls)) return calls.flatMap((call) => partCall(call) ?? [])
  // An AI SDK or Mastra result with no steps and no toolCalls: its messages, if it has them.
  const response = field(value, 'response')
  const responseMessages = isObject(response) ? field(response, 'messages') : undefined
  if (Array.isArray(responseMessages)) return listCalls(responseMessages)
  if (Array.isArray(field(value, 'messages'))) return listCalls(field(value, 'messages') as [])
  return undefined
}

function isStep(step: unknown): step is Loose {
  return isObject(step) && Array.isArray(field(step, 'toolCalls'))
}

function stepCalls(steps: Loose[]): ToolCall[] {
  return steps.flatMap((step) =>
    (field(step, 'toolCalls') as unknown[]).flatMap((call) => partCall(call) ?? []),
  )
}

// A list is steps, messages or Responses items; an empty list holds no calls.
function listCalls(list: unknown[]): ToolCall[] | undefined {
  if (list.length === 0) return []
  if (list.every(isStep)) return stepCalls(list)
  const calls: ToolCall[] = []
  for (const item of list) {
    if (!isObject(item)) return undefined
    const call = itemCall(item)
    if (call) calls.push(call)
    else if (typeof item.role === 'string') calls.push(...messageCalls(item))
    else if (typeof item.type !== 'string') return undefined
  }
  return calls
}

// One message of any shape: OpenAI's `tool_calls`, then tool parts in `content` or `parts`.
function messageCalls(message: Loose): ToolCall[] {
  const calls: ToolCall[] = []
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const found = partCall(call)
      if (found) calls.push(found)
    }
  }
  const content = message.content
  const parts = Array.isArray(content)
    ? content
    : isObject(content) && Array.isArray(content.parts)
      ? content.parts // Mastra's stored message: { format: 2, parts }
      : Array.isArray(message.parts)
        ? message.parts // AI SDK UI message
        : []
  for (const part of parts) {
    const found = partCall(part)
    if (found) calls.push(found)
  }
  return calls
}

// A Responses item of type `function_call`.
function itemCall(item: unknown): ToolCall | undefined {
  if (!isObject(item) || item.type !== 'function_call' || typeof item.name !== 'string') {
    return undefined
  }
  return call(item.name, item.arguments, item.call_id ?? item.id)
}

// One call of any of the shapes; undefined for a part that is not a tool call (text, results).
function partCall(part: unknown): ToolCall | undefined {
  if (!isObject(part)) return undefined
  // OpenAI chat: { id, type: 'function', function: { name, arguments } }
  const fn = part.function
  if (isObject(fn) && typeof fn.name === 'string') return call(fn.name, fn.arguments, part.id)
  if (part.type === 'function_call') return itemCall(part)
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
