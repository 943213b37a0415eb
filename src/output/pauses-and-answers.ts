// What a run paused for, and the structured answer it gave, across the frameworks where the idea
// exists: LangGraph (`interrupt()`, `structuredResponse`), LangChain (`{ raw, parsed }`), the
// OpenAI Agents SDK (approvals in `interruptions`, a structured `finalOutput`), the AI SDK
// (`output`, `object`) and Mastra (`object`). A value where rubricate cannot tell is a usage error,
// never "not paused" or "no answer" by accident.
import { UsageError } from '../errors'
import { isAgentsRunResult } from './agents-sdk'
import { describeFound } from './item-kinds'
import { langGraphInterrupts } from './langgraph'
import { langGraphState, rawAndParsed } from './langgraph-streams'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/**
 * The pauses a run is waiting on: a LangGraph state's, snapshot's or stream's interrupts (the
 * values given to `interrupt()`), an Agents SDK run's `interruptions` (the calls waiting for
 * approval, as `{ name, args }`). Empty for a run of those that is not paused.
 * @internal
 */
export function pendingInterrupts(value: unknown): unknown[] {
  if (isAgentsRunResult(value)) {
    const pending = read(value, 'interruptions')
    return Array.isArray(pending) ? pending.map(approval) : []
  }
  const state = langGraphState(value) ?? value
  const interrupts = langGraphInterrupts(state)
  if (interrupts !== undefined) return interrupts.map((entry) => entry.value)
  if (isObject(state) && !Array.isArray(state) && Array.isArray(read(state, 'messages'))) return []
  throw new UsageError(outputMessages.interruptsUnknownShape(describeFound(value)))
}

/**
 * The structured answer of a run: `{ found: true, value }`, or `{ found: false }` for a result
 * that could carry one and does not. A value of no shape that can carry one is a usage error.
 * @internal
 */
export function structuredResponse(
  value: unknown,
): { found: true; value: unknown } | { found: false } {
  const pair = rawAndParsed(value)
  if (pair)
    return pair.parsed === null || pair.parsed === undefined
      ? { found: false }
      : { found: true, value: pair.parsed }
  if (isAgentsRunResult(value)) {
    const output = read(value, 'finalOutput')
    return output === undefined || typeof output === 'string'
      ? { found: false }
      : { found: true, value: output }
  }
  const state = langGraphState(value) ?? value
  if (isObject(state) && !Array.isArray(state)) {
    for (const key of ['structuredResponse', 'object', 'output']) {
      const found = read(state, key)
      if (found !== undefined && found !== null && !(key === 'output' && Array.isArray(found))) {
        return { found: true, value: found }
      }
    }
    // A LangGraph state, an AI SDK or Mastra result without one.
    if (Array.isArray(read(state, 'messages')) || typeof read(state, 'text') === 'string') {
      return { found: false }
    }
  }
  throw new UsageError(outputMessages.structuredUnknownShape(describeFound(value)))
}

// An Agents SDK `tool_approval_item`: the call waiting, as name and arguments.
function approval(item: unknown): unknown {
  const raw = isObject(item) ? item.rawItem : undefined
  if (!isObject(raw)) return item
  const args = typeof raw.arguments === 'string' ? parse(raw.arguments) : raw.arguments
  return { name: raw.name, args }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

// Results may expose fields as getters that throw (the AI SDK's `output` without one).
function read(object: object, key: string): unknown {
  try {
    return (object as Loose)[key]
  } catch {
    return undefined
  }
}
