import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { isThenable, outputText } from '../output'
import type { JudgeCall } from '../records/records'
import { runChoicesOf } from '../runtime/run-choices'
import { withModelCallsAsJudgeCalls } from './model-calls'
import type { ScorerRun } from './types'

/** What a scorer function of the evalite / autoevals / vitest-evals shape receives. */
export interface EvalScorerArgs {
  input: unknown
  /** The output: as text by default (see `output` in {@link AdaptScorerOptions}). */
  output: any
  /** The reference answer: the run's `groundTruth` (`expected` in the matchers). */
  expected: any
  /** The run's `additionalContext.context` (the matchers' `context`), when given. */
  context?: unknown
}

/** What such a function returns: a score, or `{ score, metadata }`; a `null` score means "skip". */
export type EvalScorerResult =
  | number
  | null
  | {
      score: number | null
      metadata?: Record<string, unknown> | undefined
      name?: string | undefined
    }

/** A scorer function as evalite, autoevals (`Levenshtein`, `Factuality`) and vitest-evals write them. */
export type EvalScorerFunction = (
  args: EvalScorerArgs,
) => EvalScorerResult | Promise<EvalScorerResult>

/** Options of {@link adaptScorer}. */
export interface AdaptScorerOptions {
  /** The scorer's id in messages and reports. Default: the result's `name`, else the function's name, else `'scorer'`. */
  id?: string | undefined
  /** `'text'`: the output as the judge would see it (`outputText`); `'raw'`: as given. Default `'text'`. */
  output?: 'text' | 'raw' | undefined
}

/** The result of an adapted scorer's run. */
export interface AdaptedScorerResult {
  score?: number | undefined
  /** The metadata the function returned (autoevals' `rationale`, say). */
  metadata?: Record<string, unknown> | undefined
  /** The rationale in the metadata, when there is one. */
  reason?: string | undefined
  /** The model calls the function made (through rubricate's cassettes), as judge calls. */
  judgeCalls: JudgeCall[]
  /** Set when the function returned a `null` score. */
  notScorable?: { step: 'generateScore'; reason?: string | undefined } | undefined
}

/** A scorer function wrapped for `toPassScorer`, `runUntilComplete` and `scorer.run()`. */
export interface AdaptedScorer {
  readonly id: string
  run(run: ScorerRun): Promise<AdaptedScorerResult>
}

const OPTION_KEYS = ['id', 'output']

/**
 * Wrap a scorer function of the evalite / autoevals / vitest-evals shape,
 * `({ input, output, expected }) => number | { score, metadata }`, so that it runs unchanged under
 * `toPassScorer`. A `null` score is "not scorable" (an error by default, a skipped test with
 * `notScorable: 'skip'`); metadata is kept and shown; the model calls the function makes through
 * rubricate's cassettes (autoevals' judge, for one) are counted as judge calls.
 *
 * @example
 * import { Levenshtein } from 'autoevals'
 * await expect(reply).toPassScorer(adaptScorer(Levenshtein), { expected: 'Hello!', threshold: 0.8 })
 */
export function adaptScorer(fn: EvalScorerFunction, options?: AdaptScorerOptions): AdaptedScorer
/**
 * A scorer from a library whose own argument type asks for more than rubricate hands it (autoevals'
 * `Factuality` types its `client` option as required in one branch of a union). It is called with
 * `{ input, output, expected, context }` all the same.
 */
export function adaptScorer(
  fn: (args: never) => EvalScorerResult | Promise<EvalScorerResult>,
  options?: AdaptScorerOptions,
): AdaptedScorer
export function adaptScorer(
  scorer: EvalScorerFunction | ((args: never) => EvalScorerResult | Promise<EvalScorerResult>),
  options: AdaptScorerOptions = {},
): AdaptedScorer {
  const fn = scorer as EvalScorerFunction
  if (typeof fn !== 'function') throw new UsageError(messages.adaptScorerNotFunction(fn))
  rejectUnknownKeys('adaptScorer() options', options, OPTION_KEYS)
  const mode = options.output ?? 'text'
  if (mode !== 'text' && mode !== 'raw') {
    throw new UsageError(
      messages.invalidChoice('adaptScorer() options.output', mode, ['text', 'raw']),
    )
  }
  const fallbackId = options.id ?? (fn.name || 'scorer')
  return {
    id: fallbackId,
    async run(run) {
      const args: EvalScorerArgs = {
        input: run.input,
        output: mode === 'text' ? outputText(run.output) : run.output,
        expected: run.groundTruth,
      }
      const context = run.additionalContext?.context
      if (context !== undefined) args.context = context
      const { value, judgeCalls } = await withModelCallsAsJudgeCalls(
        'generateScore',
        async () => {
          const out = fn(args)
          return isThenable(out) ? await out : out
        },
        runChoicesOf(run),
      )
      return toResult(options.id ?? nameOf(value) ?? fallbackId, value, judgeCalls)
    },
  }
}

function nameOf(value: unknown): string | undefined {
  const name = (value as { name?: unknown } | null)?.name
  return typeof value === 'object' && typeof name === 'string' && name !== '' ? name : undefined
}

function toResult(id: string, value: unknown, judgeCalls: JudgeCall[]): AdaptedScorerResult {
  const object =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  // autoevals reports a failed judge call as `error` beside a null score: that is an error.
  if (object && object.error !== undefined && object.error !== null) {
    throw new UsageError(messages.adaptedScorerError(id, object.error), { cause: object.error })
  }
  const score = object ? object.score : value
  const metadata =
    object && typeof object.metadata === 'object' && object.metadata !== null
      ? (object.metadata as Record<string, unknown>)
      : undefined
  const rationale = metadata?.rationale ?? metadata?.reason
  const reason = typeof rationale === 'string' ? rationale : undefined
  const base: AdaptedScorerResult = { judgeCalls }
  if (metadata) base.metadata = metadata
  if (reason) base.reason = reason
  if (score === null || (score === undefined && object !== undefined && 'score' in object)) {
    return {
      ...base,
      notScorable: { step: 'generateScore', reason: reason ?? messages.adaptedScorerNullScore() },
    }
  }
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    throw new UsageError(messages.adaptedScorerBadScore(id, value))
  }
  return { ...base, score }
}
