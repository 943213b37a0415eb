import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import type { ScorerRun } from './types'

/** Options of {@link filterRun}: rubricate's and Mastra's names. */
export interface FilterRunOptions {
  /** Keep only the last N messages of each message list of the input. Default: keep all. */
  maxInputMessages?: number | undefined
  /** Mastra's: keep only the last N messages of `input.rememberedMessages`. Default: keep all. */
  maxRememberedMessages?: number | undefined
  /** Keep only the last N messages of an array output. Default: keep all. */
  maxOutputMessages?: number | undefined
  /**
   * Mastra's: in `input.rememberedMessages` and an array output, keep only messages with a part
   * whose `type` starts with one of these (`'text'`, `'tool-invocation'`, `'data-'`). Messages
   * without parts (plain text content) are kept. Default: no filter.
   */
  partTypes?: string[] | undefined
  /**
   * Mastra's: in the same lists, drop messages with tool invocations unless one names a tool
   * starting with one of these. Messages without tool invocations are kept. Default: no filter.
   */
  toolNames?: string[] | undefined
  /** Remove `requestContext` from the run. Default `false`. */
  dropRequestContext?: boolean | undefined
  /** Remove `groundTruth` from the run. Default `false`. */
  dropGroundTruth?: boolean | undefined
  /** Remove `expectedTrajectory` from the run. Default `false`. */
  dropExpectedTrajectory?: boolean | undefined
}

// The options filterRun accepts; anything else is a usage error naming the nearest one.
const OPTION_KEYS = [
  'maxInputMessages',
  'maxRememberedMessages',
  'maxOutputMessages',
  'partTypes',
  'toolNames',
  'dropRequestContext',
  'dropGroundTruth',
  'dropExpectedTrajectory',
]

// The message lists of the input shapes scorers see: an agent's input, a completion context,
// a chat request.
const INPUT_LISTS = ['inputMessages', 'rememberedMessages', 'messages'] as const

/**
 * Build a `prepareRun` that trims what a scorer (and so its judge) sees: long histories cost
 * tokens and make cassette keys change with every unrelated message. The input's message lists
 * are an array input itself and its `inputMessages`, `rememberedMessages` and `messages` arrays.
 * Mastra's options (`partTypes`, `toolNames`, `maxRememberedMessages`, `dropExpectedTrajectory`)
 * act as in Mastra: on `input.rememberedMessages` and an array output only.
 *
 * @example
 * createScorer({ id: 'tone', description: 'Tone of the last reply', prepareRun: filterRun({ maxInputMessages: 4, dropRequestContext: true }) })
 */
export function filterRun(options: FilterRunOptions): (run: ScorerRun) => ScorerRun {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(messages.configNotObject('filterRun()', options))
  }
  rejectUnknownKeys('filterRun()', options, OPTION_KEYS)
  for (const key of ['partTypes', 'toolNames'] as const) {
    const list = options[key]
    if (list !== undefined && !(Array.isArray(list) && list.every((x) => typeof x === 'string'))) {
      throw new UsageError(messages.filterRunNotStrings(key, list))
    }
  }
  const keepLast = (list: unknown[], max: number | undefined): unknown[] =>
    max === undefined ? list : max <= 0 ? [] : list.slice(-max)
  const byParts = options.partTypes !== undefined || options.toolNames !== undefined
  const filterParts = (list: unknown[]) =>
    byParts ? list.filter((message) => keepMessage(message, options)) : list
  return (run) => {
    const next: ScorerRun = { ...run }
    const { maxInputMessages: maxIn, maxOutputMessages: maxOut } = options
    if (maxIn !== undefined && Array.isArray(run.input)) {
      next.input = keepLast(run.input, maxIn)
    } else if (maxIn !== undefined && typeof run.input === 'object' && run.input !== null) {
      const input: Record<string, unknown> = { ...run.input }
      for (const key of INPUT_LISTS) {
        const list = input[key]
        if (Array.isArray(list)) input[key] = keepLast(list, maxIn)
      }
      next.input = input
    }
    const remembered = (next.input as { rememberedMessages?: unknown } | undefined)
      ?.rememberedMessages
    if (Array.isArray(remembered) && (byParts || options.maxRememberedMessages !== undefined)) {
      next.input = {
        ...(next.input as object),
        rememberedMessages: keepLast(filterParts(remembered), options.maxRememberedMessages),
      }
    }
    if (Array.isArray(next.output)) next.output = keepLast(filterParts(next.output), maxOut)
    if (options.dropRequestContext) delete next.requestContext
    if (options.dropGroundTruth) delete next.groundTruth
    if (options.dropExpectedTrajectory) delete next.expectedTrajectory
    return next
  }
}

interface MessagePart {
  type?: unknown
  toolInvocation?: { toolName?: unknown }
  toolName?: unknown
}

/** Mastra's rule: keep plain messages; filter those with parts by part type and tool name. */
function keepMessage(message: unknown, options: FilterRunOptions): boolean {
  const content = (message as { content?: unknown } | null)?.content
  // Parts as rubricate's AgentMessage holds them, or as Mastra's stored message does.
  const parts = Array.isArray(content) ? content : (content as { parts?: unknown } | null)?.parts
  if (!Array.isArray(parts)) return true
  const typed = parts as MessagePart[]
  const typeOf = (part: MessagePart) => (typeof part?.type === 'string' ? part.type : '')
  const matchesType = () =>
    typed.some((part) => options.partTypes?.some((prefix) => typeOf(part).startsWith(prefix)))
  const tools = typed.filter((part) => typeOf(part) === 'tool-invocation')
  if (tools.length === 0) return options.partTypes === undefined || matchesType()
  if (options.toolNames) {
    const named = tools.some((part) => {
      const name = part.toolInvocation?.toolName ?? part.toolName
      return typeof name === 'string' && options.toolNames?.some((p) => name.startsWith(p))
    })
    if (!named) return false
  }
  return options.partTypes === undefined || matchesType()
}
