// The tool-call scorer's reason: one line that names each expected call's outcome, so a report
// shows which calls earned the partial credit and which cost it.

import { stableJson, type ToolCall } from '../output'
import type { ReferenceCallStatus } from './trajectory-match'

/**
 * `1 of 2 reference calls matched (strict); matched lookup_order {"id":"A1"}; missing refund;
 * extra (counted against) search {"q":"A1"}: score 0.333`. A call is shown with its arguments
 * when it has some, so two calls of one tool can be told apart.
 * @internal
 */
export function trajectoryReason(
  reference: readonly ReferenceCallStatus[],
  calls: readonly ToolCall[],
  score: number,
  words: { noun: string; how: string; extrasCount: boolean },
): string {
  const matched = reference.filter((call) => call.status === 'matched').length
  const plural = reference.length === 1 ? '' : 's'
  const parts = [
    `${matched} of ${reference.length} ${words.noun} call${plural} matched (${words.how})`,
  ]
  for (const status of ['matched', 'out of order', 'missing'] as const) {
    const some = reference.filter((call) => call.status === status)
    if (some.length > 0) {
      parts.push(`${status} ${some.map((call) => callText(call.name, call.args)).join(', ')}`)
    }
  }
  const used = new Set(reference.map((call) => call.at))
  const extra = calls.filter((_, at) => !used.has(at))
  if (extra.length > 0) {
    const label = words.extrasCount ? 'extra (counted against)' : 'extra (allowed)'
    parts.push(`${label} ${extra.map((call) => callText(call.name, call.args)).join(', ')}`)
  }
  return `${parts.join('; ')}: score ${Math.round(score * 1000) / 1000}`
}

// A call as one short piece: its name, and its arguments as compact JSON cut at 60 characters.
function callText(name: string, args: unknown): string {
  if (args === undefined) return name
  let json: string
  try {
    json = JSON.stringify(JSON.parse(stableJson(args)))
  } catch {
    json = String(args)
  }
  return `${name} ${json.length > 60 ? `${json.slice(0, 57)}...` : json}`
}
