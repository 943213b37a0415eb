import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { ToolCall } from '../src/output'

/** An expected tool call: a name, or a name and the arguments it must have. @internal */
export interface ExpectedCall {
  name: string
  /** Absent: any arguments. */
  args?: unknown
  hasArgs: boolean
  /** The agent that must have made the call. Absent: any agent. */
  agent?: string | undefined
  /** The agent a handoff must have handed to. Absent: any. */
  handoffTo?: string | undefined
}

const EXPECTED_KEYS = new Set(['name', 'args', 'agent', 'handoffTo'])

/** How expected arguments are compared. @internal */
export type ArgsMode = 'exact' | 'subset'

/** The expected calls of a matcher, checked. @internal */
export function expectedCalls(matcher: string, value: unknown): ExpectedCall[] {
  if (!Array.isArray(value)) throw new UsageError(messages.toolCallsBadExpected(matcher, value))
  return value.map((item: unknown) => {
    if (typeof item === 'string' && item !== '') return { name: item, hasArgs: false }
    const call = item as { name?: unknown; args?: unknown; agent?: unknown; handoffTo?: unknown }
    if (
      typeof call !== 'object' ||
      call === null ||
      typeof call.name !== 'string' ||
      !call.name ||
      Object.keys(call).some((key) => !EXPECTED_KEYS.has(key)) ||
      (call.agent !== undefined && typeof call.agent !== 'string') ||
      (call.handoffTo !== undefined && typeof call.handoffTo !== 'string')
    ) {
      throw new UsageError(messages.toolCallsBadExpected(matcher, item))
    }
    return {
      name: call.name,
      args: call.args,
      hasArgs: 'args' in call,
      agent: call.agent as string | undefined,
      handoffTo: call.handoffTo as string | undefined,
    }
  })
}

/**
 * True when `actual` matches `expected`: same name, and arguments equal (`exact`) or holding every
 * expected key with an equal value, recursively (`subset`; arrays must match item by item).
 * Asymmetric matchers (`expect.any(Number)`, `expect.stringContaining(...)`) work in both modes.
 * @internal
 */
export function callMatches(
  state: MatcherState,
  actual: ToolCall,
  expected: ExpectedCall,
  mode: ArgsMode,
): boolean {
  if (actual.name !== expected.name) return false
  if (expected.agent !== undefined && actual.agent !== expected.agent) return false
  if (expected.handoffTo !== undefined && actual.handoffTo !== expected.handoffTo) return false
  if (!expected.hasArgs) return true
  return mode === 'exact'
    ? state.equals(actual.args, expected.args)
    : isSubset(state, actual.args, expected.args)
}

/**
 * Throws `RUBRICATE_USAGE` when an expected call with arguments matched nothing while a call of
 * its name has arguments that are not JSON (the raw text a model sent, kept as a string): whether
 * that call holds the arguments cannot be told, and a `.not` would pass on a call that was made.
 * @internal
 */
export function assertArgsReadable(
  calls: readonly ToolCall[],
  expected: readonly ExpectedCall[],
  pairs: readonly number[],
): void {
  expected.forEach((wanted, index) => {
    if (!wanted.hasArgs || pairs[index] !== -1 || typeof wanted.args === 'string') return
    const raw = calls.find((call) => call.name === wanted.name && typeof call.args === 'string')
    if (raw) throw new UsageError(messages.toolArgsNotJson(wanted.name, raw.args as string))
  })
}

function isSubset(state: MatcherState, actual: unknown, expected: unknown): boolean {
  if (isPlainObject(expected) && !isAsymmetric(expected)) {
    if (!isPlainObject(actual)) return false
    return Object.entries(expected).every(([key, value]) =>
      isSubset(state, (actual as Record<string, unknown>)[key], value),
    )
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((value, index) => isSubset(state, actual[index], value))
    )
  }
  return state.equals(actual, expected)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function isAsymmetric(value: object): boolean {
  return typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
}

/**
 * Pair expected calls with actual ones, each actual call used once: position by position when
 * `ordered`, else the largest pairing (augmenting paths; a greedy pass can miss one when subset
 * arguments let one actual call match several expected ones). `pairs[i]` is the actual index of
 * expected call `i`, or -1.
 * @internal
 */
export function pairCalls(
  state: MatcherState,
  actual: readonly ToolCall[],
  expected: readonly ExpectedCall[],
  mode: ArgsMode,
  ordered: boolean,
): number[] {
  if (ordered) {
    return expected.map((call, index) => {
      const candidate = actual[index]
      return candidate && callMatches(state, candidate, call, mode) ? index : -1
    })
  }
  const owner = new Array<number>(actual.length).fill(-1)
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let a = 0; a < actual.length; a++) {
      if (seen[a] || !callMatches(state, actual[a] as ToolCall, expected[e] as ExpectedCall, mode))
        continue
      seen[a] = true
      if (owner[a] === -1 || tryAssign(owner[a] as number, seen)) {
        owner[a] = e
        return true
      }
    }
    return false
  }
  expected.forEach((_, e) => {
    tryAssign(e, new Array<boolean>(actual.length).fill(false))
  })
  const pairs = expected.map(() => -1)
  owner.forEach((e, a) => {
    if (e >= 0) pairs[e] = a
  })
  return pairs
}

/**
 * Expected and actual calls side by side, one row per pair: `✓` an expected call that was made,
 * `✗` one that was not, `+` a call that was not expected.
 * @internal
 */
export function sideBySide(
  state: MatcherState,
  actual: readonly ToolCall[],
  expected: readonly ExpectedCall[],
  pairs: readonly number[],
  ordered: boolean,
  labels: { expected: string; actual: string },
): string[] {
  const show = (value: unknown) => cell(state.utils.stringify(value, 10, { min: true }))
  const agents = (call: { agent?: string | undefined; handoffTo?: string | undefined }) =>
    `${call.agent !== undefined ? ` by ${call.agent}` : ''}${call.handoffTo !== undefined ? ` → ${call.handoffTo}` : ''}`
  const expectedText = (call: ExpectedCall) =>
    `${call.hasArgs ? `${call.name} ${show(call.args)}` : `${call.name} (any args)`}${agents(call)}`
  const actualText = (index: number) => {
    const call = actual[index] as ToolCall
    return `${index + 1}. ${call.name} ${show(call.args)}${agents(call)}`
  }
  const rows: [string, string][] = []
  const shown = new Set<number>()
  expected.forEach((call, e) => {
    const a = pairs[e] ?? -1
    const mark = a >= 0 ? '✓' : '✗'
    // In order, row i always shows actual call i, matched or not, so positions line up.
    const right = a >= 0 ? a : ordered && e < actual.length ? e : -1
    if (right >= 0) shown.add(right)
    rows.push([`${mark} ${e + 1}. ${expectedText(call)}`, right >= 0 ? actualText(right) : ''])
  })
  actual.forEach((_, a) => {
    if (!shown.has(a)) rows.push(['+', actualText(a)])
  })
  if (actual.length === 0) rows.push(['', messages.toolCallsNone()])
  const width = Math.max(labels.expected.length, ...rows.map(([left]) => left.length))
  return [
    `  ${labels.expected.padEnd(width)} │ ${labels.actual}`,
    ...rows.map(([left, right]) => `  ${left.padEnd(width)} │ ${right}`.trimEnd()),
  ]
}

// Long arguments are cut in the table, never in the comparison.
function cell(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}
