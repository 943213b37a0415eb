// An agent's run as a transcript a judge can read: each tool call with its arguments and result,
// in order, then the final answer. Built from the shapes `toolCalls()` reads.
import { outputText, stableJson, toolCalls } from '../output'
import { conversationReplies, type HeldMessage } from '../output/conversation-output'
import { toolResults } from '../output/tool-results'

// Long results are cut: a judge grades the path, and a 50 kB search result would drown it.
const RESULT_LIMIT = 1_000

/**
 * The transcript of an agent's tool calls and their results, numbered, then its final answer:
 *
 * ```
 * 1. lookup_order({"id":"A1"})
 *    → {"status":"shipped"}
 * 2. refund({"id":"A1"})
 *    → (no result recorded)
 *
 * Final answer:
 * Your refund is on its way.
 * ```
 *
 * For a multi-turn row's conversation, turn by turn: `User: ...`, that turn's calls (numbered on
 * across turns), `Assistant: ...`.
 *
 * @example
 * trajectoryText(await generateText({ model, tools, prompt }))
 */
export function trajectoryText(value: unknown): string {
  // A multi-turn row's conversation: each turn's user message, its calls, then its reply.
  const replies = conversationReplies(value)
  if (replies) {
    const messages = value as HeldMessage[]
    const lines: string[] = []
    let numbered = 0
    replies.forEach((reply, turn) => {
      lines.push(`User: ${messages[2 * turn]?.content ?? ''}`)
      const calls = typeof reply === 'object' && reply !== null ? callLines(reply, numbered) : []
      numbered += calls.filter((line) => !line.startsWith(' ')).length
      lines.push(...calls, `Assistant: ${messages[2 * turn + 1]?.content ?? ''}`, '')
    })
    return lines.join('\n').trimEnd()
  }
  const lines = callLines(value, 0)
  if (lines.length === 0) lines.push('(no tool calls)')
  const answer = finalAnswer(value)
  if (answer) lines.push('', 'Final answer:', answer)
  return lines.join('\n')
}

// Each call, numbered from `from + 1`, with its result under it.
function callLines(value: unknown, from: number): string[] {
  const calls = toolCalls(value)
  const results = toolResults(value)
  const lines: string[] = []
  // Results with no call id answer the calls of their tool with no id, in order (Gemini's).
  const unclaimed = new Map([...results.byName].map(([name, list]) => [name, [...list]]))
  calls.forEach((call, index) => {
    lines.push(`${from + index + 1}. ${call.name}(${compact(call.args ?? {})})`)
    const byId = call.id !== undefined && results.byId.has(call.id)
    const byName = !byId && call.id === undefined && (unclaimed.get(call.name)?.length ?? 0) > 0
    const result = byId
      ? results.byId.get(call.id as string)
      : byName
        ? unclaimed.get(call.name)?.shift()
        : undefined
    const shown =
      byId || byName
        ? cut(typeof result === 'string' ? result : compact(result))
        : '(no result recorded)'
    lines.push(`   → ${shown.replace(/\n/g, '\n     ')}`)
  })
  return lines
}

function finalAnswer(value: unknown): string {
  try {
    const text = outputText(value)
    // A value with no text of its own prints as JSON: that is not an answer.
    return text.trim().startsWith('{') || text.trim().startsWith('[') ? '' : text.trim()
  } catch {
    return ''
  }
}

function cut(text: string): string {
  return text.length > RESULT_LIMIT ? `${text.slice(0, RESULT_LIMIT)}… (cut)` : text
}

// One line of JSON, as a call is written; what JSON cannot hold (a cycle) as rubricate's JSON.
function compact(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return stableJson(value)
  }
}
