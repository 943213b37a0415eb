import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { type ToolCall, toolCalls } from '../src/output'
import { checkArgsRules } from '../src/trajectory/args-match'
import { referenceCalls } from '../src/trajectory/reference-calls'
import {
  MODE_RULES,
  matchTrajectory,
  type ReferenceCallStatus,
  TRAJECTORY_MODES,
  type TrajectoryMatch,
  type TrajectoryMatchMode,
} from '../src/trajectory/trajectory-match'
import { trajectoryMessages } from '../src/trajectory/trajectory-messages'
import { checkOptions } from './check-options'

const OPTIONS = ['mode', 'args', 'argsByTool'] as const

/**
 * Passes when the agent's tool calls match a reference trajectory: `mode: 'strict'` (default) the
 * same calls in the same order, `'unordered'` the same calls in any order, `'subset'` no call
 * outside the reference, `'superset'` every reference call (others allowed). The reference is a
 * message list or result of any shape the tool-call matchers read, or a list of `{ name, args? }`
 * calls or tool names. Arguments are compared by `args` (`'subset'` by default, `'exact'`,
 * `'ignore'` or a function), per tool by `argsByTool`. It passes exactly when
 * `createToolCallScorer` with the same options scores 1. No judge is called.
 *
 * @example
 * expect(result).toMatchTrajectory(referenceRun.messages, { mode: 'unordered', args: 'exact' })
 * expect(result).toMatchTrajectory([{ name: 'lookup_order', args: { id: 'A1' } }], { mode: 'superset' })
 */
export function toMatchTrajectory(
  this: MatcherState,
  received: unknown,
  reference: unknown,
  options?: unknown,
): { pass: boolean; message: () => string } {
  const opts = checkOptions('toMatchTrajectory', options, OPTIONS)
  const mode = (opts.mode ?? 'strict') as TrajectoryMatchMode
  if (!TRAJECTORY_MODES.includes(mode)) {
    throw new UsageError(
      messages.invalidChoice('toMatchTrajectory() option "mode"', mode, TRAJECTORY_MODES),
    )
  }
  const args = checkArgsRules('toMatchTrajectory()', opts.args, opts.argsByTool, 'subset')
  const wanted = referenceCalls('toMatchTrajectory()', reference)
  const calls = toolCalls(received)
  const found = matchTrajectory(calls, wanted, MODE_RULES[mode], args)
  const negated = Boolean(this.isNot)
  return {
    pass: found.score === 1,
    message: () => {
      const hint = this.utils.matcherHint(
        `${negated ? '.not' : ''}.toMatchTrajectory`,
        'output',
        'reference',
      )
      const count = (status: ReferenceCallStatus['status']) =>
        found.reference.filter((call) => call.status === status).length
      const head = negated
        ? trajectoryMessages.trajectoryMatchedNegated(mode)
        : trajectoryMessages.trajectoryMismatch(mode, {
            reference: wanted.length,
            matched: count('matched'),
            missing: count('missing'),
            outOfOrder: count('out of order'),
            extra: found.extra.length,
          })
      const argsLabel = typeof args.args === 'function' ? 'a function' : args.args
      const labels = {
        reference: trajectoryMessages.trajectoryReferenceLabel(mode, argsLabel),
        actual: trajectoryMessages.trajectoryActualLabel(calls.length),
      }
      return [hint, '', head, '', ...table(this, calls, found, mode, labels)].join('\n')
    },
  }
}

// One row per reference call with its status (✓ matched, ✗ missing or out of order, ○ missing
// where the mode allows it), the call it was found at beside it, then one row per extra call
// (+, marked allowed where the mode allows extras).
function table(
  state: MatcherState,
  calls: readonly ToolCall[],
  found: TrajectoryMatch,
  mode: TrajectoryMatchMode,
  labels: { reference: string; actual: string },
): string[] {
  const rules = MODE_RULES[mode]
  const show = (value: unknown) => cell(state.utils.stringify(value, 10, { min: true }))
  const callText = (index: number) => {
    const call = calls[index] as ToolCall
    return `${index + 1}. ${call.name} ${show(call.args)}`
  }
  const rows: [string, string][] = found.reference.map((want, r) => {
    const what = `${r + 1}. ${want.name} ${'args' in want ? show(want.args) : '(any args)'}`
    const mark =
      want.status === 'matched' ? '✓' : want.status === 'missing' && !rules.countMissing ? '○' : '✗'
    const status =
      want.status === 'matched'
        ? ''
        : want.status === 'missing' && !rules.countMissing
          ? ' (missing, allowed)'
          : ` (${want.status})`
    return [`${mark} ${what}${status}`, want.at === undefined ? '' : callText(want.at)]
  })
  for (const at of found.extra) {
    rows.push([rules.countExtras ? '+ extra' : '+ extra, allowed', callText(at)])
  }
  if (calls.length === 0) rows.push(['', trajectoryMessages.trajectoryNoCalls()])
  const width = Math.max(labels.reference.length, ...rows.map(([left]) => left.length))
  return [
    `  ${labels.reference.padEnd(width)} │ ${labels.actual}`,
    ...rows.map(([left, right]) => `  ${left.padEnd(width)} │ ${right}`.trimEnd()),
  ]
}

// Long arguments are cut in the table, never in the comparison.
function cell(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}
