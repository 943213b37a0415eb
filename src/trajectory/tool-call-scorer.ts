// A scorer of an agent's tool calls with partial credit, against expected calls or a reference
// trajectory: in agentevals' modes (strict, unordered, subset, superset), or in order or any order
// with extras allowed or counted; arguments compared exactly, as a subset, not at all, or by the
// user's own function, per tool if need be.

import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { type ToolCall, toolCalls } from '../output'
import { createScorer, type Scorer } from '../scorer/create-scorer'
import { checkArgsRules, type ToolArgsMatcher, type ToolArgsMode } from './args-match'
import { type ExpectedToolCall, referenceCalls } from './reference-calls'
import {
  type MatchRules,
  MODE_RULES,
  matchTrajectory,
  type ReferenceCallStatus,
  TRAJECTORY_MODES,
  type TrajectoryMatchMode,
} from './trajectory-match'
import { trajectoryMessages } from './trajectory-messages'
import { trajectoryReason } from './trajectory-reason'

export type { ExpectedToolCall, ToolArgsMatcher, ToolArgsMode, TrajectoryMatchMode }

/** Options of {@link createToolCallScorer}. Give `expected` or `reference`. */
export interface ToolCallScorerConfig {
  /** The calls the agent should make, each `{ name, args? }` (no `args`: any arguments). */
  expected?: readonly ExpectedToolCall[] | undefined
  /**
   * A reference trajectory: a message list or result in any shape the tool-call matchers read
   * (OpenAI chat messages, Responses items, an Agents SDK or AI SDK result or its steps, LangChain
   * messages, a LangGraph state), or a list of calls `{ name, args? }` or tool names.
   */
  reference?: unknown
  /**
   * `'strict'` (the same calls in the same order), `'unordered'` (the same calls in any order),
   * `'subset'` (no call outside the reference), `'superset'` (every reference call, others
   * allowed). Replaces `order` and `allowExtras`. Default `'strict'` with `reference`.
   */
  mode?: TrajectoryMatchMode | undefined
  /** `'strict'`: in this order (other calls may come between); `'any'`: in any order. Default `'any'`. */
  order?: 'strict' | 'any' | undefined
  /** `false`: each call beyond the expected ones counts against the score. Default `true`. */
  allowExtras?: boolean | undefined
  /**
   * How arguments are compared: `'exact'` (deep equality), `'subset'` (every expected key, deeply,
   * and any others), `'ignore'` (the name alone), or a function `(expected, actual, name) =>
   * boolean`. Default `'subset'`.
   */
  args?: ToolArgsMode | undefined
  /** Per tool name, how its arguments are compared, overriding `args`: `{ search: 'ignore' }`. */
  argsByTool?: Readonly<Record<string, ToolArgsMode>> | undefined
  /** The scorer's id in reports. Default `'tool-calls'`. */
  id?: string | undefined
}

/** What the scorer found: its preprocess step's result. */
export interface ToolCallMatch {
  expected: number
  matched: number
  /** The expected calls not matched, by name. */
  missing: string[]
  /** Expected calls made, but not in their order (in order only), by name. */
  outOfOrder: string[]
  /** The calls that matched no expected one, by name (counted against the score when `allowExtras` is false). */
  extra: string[]
  /** Each expected or reference call, with its status and the call it was found at. */
  reference: ReferenceCallStatus[]
  /** Every call the agent made, in order. */
  calls: ToolCall[]
  /** The partial credit, 0 to 1: the scorer's score. */
  score: number
}

const CONFIG_KEYS = [
  'expected',
  'reference',
  'mode',
  'order',
  'allowExtras',
  'args',
  'argsByTool',
  'id',
]
const WHERE = 'createToolCallScorer()'

/**
 * A scorer of the agent's tool calls with partial credit, for `describeEval` and `toPassScorer`.
 * The score is the share of expected calls matched; with extras counted (`allowExtras: false`,
 * or modes `'strict'`, `'unordered'`, `'subset'`), each extra call adds to the total; in mode
 * `'subset'` missing calls do not count. Reads every shape `toolCalls()` reads, for the output
 * and for `reference`. The reason lists the calls matched, missing, out of order and extra.
 *
 * @example
 * const trajectory = createToolCallScorer({
 *   expected: [{ name: 'lookup_order', args: { id: 'A1' } }, { name: 'refund' }],
 *   order: 'strict',
 * })
 * await expect(result).toPassScorer(trajectory, { threshold: 0.5 })
 *
 * const path = createToolCallScorer({ reference: goodRun.messages, mode: 'unordered', args: 'exact' })
 */
export function createToolCallScorer(
  config: ToolCallScorerConfig,
): Scorer<any, any, ToolCallMatch> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject(WHERE, config))
  }
  rejectUnknownKeys(WHERE, config, CONFIG_KEYS)
  if (config.reference !== undefined && config.expected !== undefined) {
    throw new UsageError(trajectoryMessages.referenceAndExpected())
  }
  if (config.reference === undefined && config.expected === undefined) {
    throw new UsageError(trajectoryMessages.noExpectedCalls())
  }
  const fromReference = config.reference !== undefined
  const expected = fromReference
    ? referenceCalls(`${WHERE} option "reference"`, config.reference)
    : checkExpected(config.expected)
  const { rules, how } = matchRules(config, fromReference)
  const args = checkArgsRules(WHERE, config.args, config.argsByTool, 'subset')
  const noun = fromReference ? 'reference' : 'expected'
  return createScorer({
    id: config.id ?? 'tool-calls',
    description: `Tool calls: ${expected.map((call) => call.name).join(', ') || 'none'} (${how})`,
  })
    .preprocess(({ run }) => {
      const calls = toolCalls(run.output)
      const found = matchTrajectory(calls, expected, rules, args)
      const named = (status: ReferenceCallStatus['status']) =>
        found.reference.filter((call) => call.status === status).map((call) => call.name)
      const match: ToolCallMatch = {
        expected: expected.length,
        matched: named('matched').length,
        missing: named('missing'),
        outOfOrder: named('out of order'),
        extra: found.extra.map((at) => (calls[at] as ToolCall).name),
        reference: found.reference,
        calls,
        score: found.score,
      }
      return match
    })
    .generateScore(({ results }) => (results.preprocessStepResult as ToolCallMatch).score)
    .generateReason(({ results, score }) => {
      const match = results.preprocessStepResult as ToolCallMatch
      return trajectoryReason(match.reference, match.calls, score, {
        noun,
        how,
        extrasCount: rules.countExtras,
      })
    })
}

// The mode's rules, or the rules `order` and `allowExtras` make; `how` names them in texts.
function matchRules(
  config: ToolCallScorerConfig,
  fromReference: boolean,
): { rules: MatchRules; how: string } {
  if (config.mode !== undefined || fromReference) {
    for (const key of ['order', 'allowExtras'] as const) {
      if (config[key] !== undefined) throw new UsageError(trajectoryMessages.modeWithOrder(key))
    }
    const mode = config.mode ?? 'strict'
    if (!TRAJECTORY_MODES.includes(mode)) {
      throw new UsageError(messages.invalidChoice(`${WHERE} option "mode"`, mode, TRAJECTORY_MODES))
    }
    return { rules: MODE_RULES[mode], how: mode }
  }
  const order = config.order ?? 'any'
  if (order !== 'strict' && order !== 'any') {
    throw new UsageError(
      messages.invalidChoice(`${WHERE} option "order"`, order, ['strict', 'any']),
    )
  }
  const allowExtras = config.allowExtras ?? true
  if (typeof allowExtras !== 'boolean') {
    throw new UsageError(
      messages.invalidChoice(`${WHERE} option "allowExtras"`, allowExtras, ['true', 'false']),
    )
  }
  return {
    rules: { ordered: order === 'strict', countMissing: true, countExtras: !allowExtras },
    how: `${order} order`,
  }
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
