import { UsageError } from '../errors'
import { rejectUnknownKeys } from '../known-keys'
import { messages } from '../messages'
import type { ScorerRun } from './types'

/** Options of {@link filterRun}. */
export interface FilterRunOptions {
  /** Keep only the last N messages of each message list of the input. Default: keep all. */
  maxInputMessages?: number | undefined
  /** Keep only the last N messages of an array output. Default: keep all. */
  maxOutputMessages?: number | undefined
  /** Remove `requestContext` from the run. Default `false`. */
  dropRequestContext?: boolean | undefined
  /** Remove `groundTruth` from the run. Default `false`. */
  dropGroundTruth?: boolean | undefined
}

// The options filterRun accepts; anything else is a usage error naming the nearest one.
const OPTION_KEYS = [
  'maxInputMessages',
  'maxOutputMessages',
  'dropRequestContext',
  'dropGroundTruth',
]

// The message lists of the input shapes scorers see: an agent's input, a completion context,
// a chat request.
const INPUT_LISTS = ['inputMessages', 'rememberedMessages', 'messages'] as const

/**
 * Build a `prepareRun` that trims what a scorer (and so its judge) sees: long histories cost
 * tokens and make cassette keys change with every unrelated message. The input's message lists
 * are an array input itself and its `inputMessages`, `rememberedMessages` and `messages` arrays.
 *
 * @example
 * createScorer({ id: 'tone', description: 'Tone of the last reply', prepareRun: filterRun({ maxInputMessages: 4, dropRequestContext: true }) })
 */
export function filterRun(options: FilterRunOptions): (run: ScorerRun) => ScorerRun {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(messages.configNotObject('filterRun()', options))
  }
  rejectUnknownKeys('filterRun()', options, OPTION_KEYS)
  const keepLast = (list: unknown[], max: number | undefined): unknown[] =>
    max === undefined ? list : max <= 0 ? [] : list.slice(-max)
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
    if (maxOut !== undefined && Array.isArray(run.output))
      next.output = keepLast(run.output, maxOut)
    if (options.dropRequestContext) delete next.requestContext
    if (options.dropGroundTruth) delete next.groundTruth
    return next
  }
}
