// An agent's run as a transcript a judge can read: each tool call with its arguments and result,
// in order, then the final answer. Built from the shapes `toolCalls()` reads.

import { outputText, stableJson, toolCalls } from '../output'
import { conversationReplies, type HeldMessage } from '../output/conversation-output'
import { toolResults } from '../output/tool-results'
import { transcriptLine } from '../output/transcript-lines'

// Long results are cut: a judge grades the path, and a 50 kB search result would drown it.
const RESULT_LIMIT = 1_000

/**
 * The transcript of an agent's tool calls and their results, in order, then its final answer, one
 * JSON object per line:
 *
 * ```
 * {"call":1,"tool":"lookup_order","arguments":{"id":"A1"},"result":{"status":"shipped"}}
 * {"call":2,"tool":"refund","arguments":{"id":"A1"},"resultRecorded":false}
 * {"finalAnswer":"Your refund is on its way."}
 * ```
 *
 * A line is a call only because rubricate wrote it: a tool's name, its arguments, its result and
 * the answer sit inside JSON strings, so nothing they hold can add a call, a result or a turn. A
 * run with no calls has `{"toolCalls":0}`. For a multi-turn row's conversation, turn by turn: the
 * user's message (`{"turn":1,"speaker":"user","text":...}`), that turn's calls (numbered on across
 * turns, each with its `turn`), then the reply (`"speaker":"assistant"`).
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
    replies.forEach((reply, index) => {
      const turn = index + 1
      const text = (at: number) => messages[at]?.content ?? ''
      lines.push(transcriptLine({ turn, speaker: 'user', text: text(2 * index) }))
      const calls =
        typeof reply === 'object' && reply !== null ? callLines(reply, numbered, turn) : []
      numbered += calls.length
      lines.push(
        ...calls,
        transcriptLine({ turn, speaker: 'assistant', text: text(2 * index + 1) }),
      )
    })
    return lines.join('\n')
  }
  const lines = callLines(value, 0, undefined)
  if (lines.length === 0) lines.push(transcriptLine({ toolCalls: 0 }))
  const answer = finalAnswer(value)
  if (answer) lines.push(transcriptLine({ finalAnswer: answer }))
  return lines.join('\n')
}

// Each call, numbered from `from + 1`, with its result, as one line.
function callLines(value: unknown, from: number, turn: number | undefined): string[] {
  const calls = toolCalls(value)
  const results = toolResults(value)
  const lines: string[] = []
  // Results with no call id answer the calls of their tool with no id, in order (Gemini's).
  const unclaimed = new Map([...results.byName].map(([name, list]) => [name, [...list]]))
  calls.forEach((call, index) => {
    const byId = call.id !== undefined && results.byId.has(call.id)
    const byName = !byId && call.id === undefined && (unclaimed.get(call.name)?.length ?? 0) > 0
    const result = byId
      ? results.byId.get(call.id as string)
      : byName
        ? unclaimed.get(call.name)?.shift()
        : undefined
    lines.push(
      transcriptLine({
        ...(turn !== undefined ? { turn } : {}),
        call: from + index + 1,
        tool: call.name,
        arguments: jsonable(call.args ?? {}),
        ...(byId || byName ? { result: shownResult(result) } : { resultRecorded: false }),
      }),
    )
  })
  return lines
}

// A result as the judge sees it: as it is, unless its JSON is too long, then its text, cut.
function shownResult(result: unknown): unknown {
  const text = typeof result === 'string' ? result : compact(result)
  if (text.length > RESULT_LIMIT) return `${text.slice(0, RESULT_LIMIT)}… (cut)`
  return typeof result === 'string' ? result : jsonable(result)
}

// A value JSON can hold as it is; else (a cycle, a BigInt) its text as rubricate's JSON.
function jsonable(value: unknown): unknown {
  try {
    JSON.stringify(value)
    return value === undefined ? null : value
  } catch {
    return stableJson(value)
  }
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

// One line of JSON, as a call is written; what JSON cannot hold (a cycle) as rubricate's JSON.
function compact(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return stableJson(value)
  }
}
