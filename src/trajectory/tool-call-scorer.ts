// A scorer of an agent's tool calls with partial credit: how many of the expected calls were made
// (in order, or in any order), with their arguments compared exactly, as a subset, or by the
// user's own matcher; extra calls allowed, or counted against the score.

import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { type ToolCall, toolCalls } from '../output'
import { createScorer, type Scorer } from '../scorer/create-scorer'

/** One call the agent should make: the tool's name and, optionally, its arguments. */
export interface ExpectedToolCall {
  name: string
  /** Compared as `args` says; absent: any arguments. */
  args?: unknown
}

/** Compares an expected call's arguments with a call's: `true` when they match. */
export type ToolArgsMatcher = (expected: unknown, actual: unknown, name: string) => boolean

/** Options of {@link createToolCallScorer}. */
export interface ToolCallScorerConfig {
  /** The calls the agent should make. */
  expected: readonly ExpectedToolCall[]
  /** `'strict'`: in this order (other calls may come between); `'any'`: in any order. Default `'any'`. */
  order?: 'strict' | 'any' | undefined
  /** `false`: each call beyond the expected ones counts against the score. Default `true`. */
  allowExtras?: boolean | undefined
  /**
   * How arguments are compared: `'exact'` (deep equality), `'subset'` (every expected key, deeply,
   * and any others), or a function `(expected, actual, name) => boolean`. Default `'subset'`.
   */
  args?: 'exact' | 'subset' | ToolArgsMatcher | undefined
  /** The scorer's id in reports. Default `'tool-calls'`. */
  id?: string | undefined
}

/** What the scorer found, in its result's `metadata`. */
export interface ToolCallMatch {
  expected: number
  matched: number
  /** The expected calls not matched, by name. */
  missing: string[]
  /** The calls that matched no expected one, by name (counted against the score when `allowExtras` is false). */
  extra: string[]
  /** Every call the agent made, in order. */
  calls: ToolCall[]
}

const CONFIG_KEYS = ['expected', 'order', 'allowExtras', 'args', 'id']

/**
 * A scorer of the agent's tool calls with partial credit, for `describeEval` and `toPassScorer`:
 * the score is the share of expected calls made (`matched / expected`), or, with
 * `allowExtras: false`, `matched / (expected + extra calls)`. Reads every shape `toolCalls()` reads.
 *
 * @example
 * const trajectory = createToolCallScorer({
 *   expected: [{ name: 'lookup_order', args: { id: 'A1' } }, { name: 'refund' }],
 *   order: 'strict',
 * })
 * await expect(result).toPassScorer(trajectory, { threshold: 0.5 })
 */
export function createToolCallScorer(
  config: ToolCallScorerConfig,
): Scorer<any, any, ToolCallMatch> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject('createToolCallScorer()', config))
  }
  rejectUnknownKeys('createToolCallScorer()', config, CONFIG_KEYS)
  const expected = checkExpected(config.expected)
  const order = config.order ?? 'any'
  if (order !== 'strict' && order !== 'any') {
    throw new UsageError(
      messages.invalidChoice('createToolCallScorer() option "order"', order, ['strict', 'any']),
    )
  }
  const allowExtras = config.allowExtras ?? true
  if (typeof allowExtras !== 'boolean') {
    throw new UsageError(
      messages.invalidChoice('createToolCallScorer() option "allowExtras"', allowExtras, [
        'true',
        'false',
      ]),
    )
  }
  const argsOption = config.args ?? 'subset'
  if (argsOption !== 'exact' && argsOption !== 'subset' && typeof argsOption !== 'function') {
    throw new UsageError(
      messages.invalidChoice('createToolCallScorer() option "args"', argsOption, [
        'exact',
        'subset',
        'a function (expected, actual, name) => boolean',
      ]),
    )
  }
  const argsMatch: ToolArgsMatcher =
    argsOption === 'exact' ? deepEqual : argsOption === 'subset' ? isSubset : argsOption
  const fits = (want: ExpectedToolCall, call: ToolCall) =>
    want.name === call.name &&
    (want.args === undefined || argsMatch(want.args, call.args, call.name))
  return createScorer({
    id: config.id ?? 'tool-calls',
    description: `Tool calls: ${expected.map((call) => call.name).join(', ') || 'none'} (${order} order)`,
  })
    .preprocess(({ run }) => {
      const calls = toolCalls(run.output)
      const used = new Set<number>()
      let matched = 0
      const missing: string[] = []
      let from = 0
      for (const want of expected) {
        // In order: the next fitting call after the previous match; any order: the first unused.
        const start = order === 'strict' ? from : 0
        let found = -1
        for (let i = start; i < calls.length; i++) {
          if (!used.has(i) && fits(want, calls[i] as ToolCall)) {
            found = i
            break
          }
        }
        if (found === -1) {
          missing.push(want.name)
          continue
        }
        used.add(found)
        matched++
        from = found + 1
      }
      const extra = calls.filter((_, i) => !used.has(i)).map((call) => call.name)
      const match: ToolCallMatch = { expected: expected.length, matched, missing, extra, calls }
      return match
    })
    .generateScore(({ results }) => {
      const match = results.preprocessStepResult as ToolCallMatch
      const penalty = allowExtras ? 0 : match.extra.length
      const total = match.expected + penalty
      // Nothing expected: full marks, unless extras are counted and there were some.
      return total === 0 ? 1 : match.matched / total
    })
    .generateReason(({ results, score }) => {
      const match = results.preprocessStepResult as ToolCallMatch
      const parts = [`${match.matched} of ${match.expected} expected calls made`]
      if (match.missing.length > 0) parts.push(`missing ${match.missing.join(', ')}`)
      if (match.extra.length > 0) {
        parts.push(
          `${allowExtras ? 'extra (allowed)' : 'extra (counted against)'} ${match.extra.join(', ')}`,
        )
      }
      return `${parts.join('; ')}: score ${Math.round(score * 1000) / 1000}`
    })
}

function checkExpected(value: unknown): ExpectedToolCall[] {
  if (!Array.isArray(value)) {
    throw new UsageError(messages.toolCallScorerBadExpected(value))
  }
  for (const item of value) {
    if (typeof item !== 'object' || item === null || typeof item.name !== 'string') {
      throw new UsageError(messages.toolCallScorerBadExpected(item))
    }
    rejectUnknownKeys('createToolCallScorer() expected call', item, ['name', 'args'])
  }
  return value as ExpectedToolCall[]
}

/** Deep equality of JSON-like values. @internal */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  if (keysA.length !== keysB.length) return false
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  )
}

/** `expected`'s keys, deeply, are in `actual` with equal values; arrays compare whole. @internal */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (
    typeof expected !== 'object' ||
    expected === null ||
    Array.isArray(expected) ||
    typeof actual !== 'object' ||
    actual === null ||
    Array.isArray(actual)
  ) {
    return deepEqual(expected, actual)
  }
  return Object.entries(expected).every(
    ([key, value]) =>
      Object.hasOwn(actual, key) && isSubset(value, (actual as Record<string, unknown>)[key]),
  )
}
