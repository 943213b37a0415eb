import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { mastraAgentRun, textPreview } from '../src/output'
import type { JudgeCall, Verdict } from '../src/records/records'
import { withRunChoices } from '../src/runtime/run-choices'
import {
  checkScore,
  checkScoreRange,
  declaredScoreRange,
  type ScoreRange,
  scoreShare,
} from '../src/scorer/score-range'
import {
  cassetteOption,
  checkOptions,
  inputOption,
  isScorer,
  judgeReferences,
  rejectUnscored,
  scorerName,
} from './check-options'
import { evalAssertionOf } from './eval-assertion'
import { type ScorerPart, scorerFailure } from './failure-message'
import { runAssertion } from './run-assertion'
import type { ScorerLike } from './types'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

const OPTIONS = [
  'threshold',
  // lower-is-better scores (a hallucination rate): pass at or under the threshold
  'direction',
  // the scores a scorer gives, when not 0 to 1 (ARCHITECTURE.md §5)
  'range',
  'input',
  'groundTruth',
  'expected',
  'context',
  'requestContext',
  'cassettes',
  // several scorers in one assertion, and not-scorable results as skipped tests
  'aggregate',
  'notScorable',
] as const
const AGGREGATES = ['all', 'mean'] as const
const NOT_SCORABLE = ['error', 'skip'] as const
const DIRECTIONS = ['min', 'max'] as const

/**
 * Run a scorer on the value under test; passes when its score reaches `threshold`. Without a
 * threshold, a scorer that reports `passed` (a rubric scorer) passes on it, any other on
 * `score >= 1`. A result with `noRubric` or `notScorable` is a usage error, not a pass; with
 * `notScorable: 'skip'` a not-scorable result skips the test instead, with its reason.
 *
 * Given a list of scorers, runs them all: `aggregate: 'all'` (default) passes when each one
 * passes as above, `'mean'` when the mean of their scores reaches `threshold` (default 1).
 *
 * `direction: 'max'` is for lower-is-better scores (a hallucination or toxicity rate): the score
 * (or the mean) passes at or under `threshold`, which is then required. Default `'min'`.
 *
 * Every score must be a finite number in the scorer's range: `range: [min, max]` here, else the
 * scorer's own `range` property, else `[0, 1]`. Any other score is a usage error, never a pass.
 * Under `aggregate: 'mean'`, each score counts as its share of its range.
 *
 * @example
 * await expect(reply).toPassScorer(helpfulness, { threshold: 0.8, input: question })
 * await expect(reply).toPassScorer([tone, factuality], { aggregate: 'mean', threshold: 0.7 })
 * await expect(reply).toPassScorer(hallucination, { direction: 'max', threshold: 0.2 })
 */
export function toPassScorer(
  this: MatcherState,
  received: unknown,
  scorer: unknown,
  options?: unknown,
): AsyncResult {
  const several = Array.isArray(scorer)
  return runAssertion({
    kind: 'scorer',
    matcher: 'toPassScorer',
    state: this,
    received,
    input: () => inputOption(options),
    expectedLabel: several ? 'scorers' : 'scorer',
    // A scorer may read what no judge would (the tool calls of a run stopped for approval, a
    // list of its own items): the preview of a value with no text is empty, not an error.
    preview: textPreview,
    scorerId: () => knownScorerIds(scorer),
    eval: evalAssertionOf(options),
    async evaluate(call) {
      const scorers = checkScorers(scorer)
      const opts = checkOptions('toPassScorer', options, OPTIONS)
      const threshold = opts.threshold as number | undefined
      if (
        threshold !== undefined &&
        !(typeof threshold === 'number' && Number.isFinite(threshold))
      ) {
        throw new UsageError(messages.invalidThreshold(threshold))
      }
      const aggregate = choice('aggregate', opts.aggregate ?? 'all', AGGREGATES)
      if (opts.aggregate !== undefined && !several) {
        throw new UsageError(messages.aggregateWithOneScorer())
      }
      const direction = choice('direction', opts.direction ?? 'min', DIRECTIONS)
      if (direction === 'max' && threshold === undefined) {
        throw new UsageError(messages.maxDirectionNeedsThreshold('toPassScorer()'))
      }
      const givenRange =
        opts.range === undefined
          ? undefined
          : checkScoreRange('toPassScorer() option "range"', opts.range)
      const row = evalAssertionOf(options)?.row
      const onNotScorable = choice('notScorable', opts.notScorable ?? 'error', NOT_SCORABLE)
      const cassetteMode = cassetteOption('toPassScorer', opts.cassettes)
      const run: Record<string, unknown> = {
        input: opts.input,
        output: received,
        ...judgeReferences('toPassScorer', opts),
      }
      if (opts.requestContext !== undefined) run.requestContext = opts.requestContext
      // A `type: 'agent'` scorer (rubricate's or Mastra's) given a Mastra agent result gets the
      // messages Mastra would hand it, not the result object.
      const agentRun = mastraAgentRun(received)
      const runFor = (one: ScorerLike): Record<string, unknown> =>
        agentRun && isAgentScorer(one)
          ? { ...run, output: agentRun.output, input: opts.input ?? agentRun.input }
          : run
      // Loaded at the first use, not by the setup file (ARCHITECTURE.md §10).
      const { runCountingModelCalls } = await import('../src/scorer/model-calls')
      // Every scorer's own model calls (a Mastra scorer's judge) count as judge calls.
      const results: Record<string, any>[] = await Promise.all(
        scorers.map((one) =>
          runCountingModelCalls(one, withRunChoices(runFor(one), { cassetteMode, ...call })),
        ),
      )
      const judgeCalls: JudgeCall[] = results.flatMap(
        (result) => (result.judgeCalls as JudgeCall[] | undefined) ?? [],
      )
      const parts: ScorerPart[] = []
      const shares: number[] = []
      for (const [index, result] of results.entries()) {
        const id = scorerName(scorers[index] as ScorerLike)
        const unscored = result.notScorable as { step?: string; reason?: string } | undefined
        if (unscored && !result.noRubric && onNotScorable === 'skip') {
          return { satisfied: false, judgeCalls, skip: messages.scorerSkipped(id, unscored.reason) }
        }
        rejectUnscored('toPassScorer', id, result)
        const range = givenRange ?? declaredScoreRange(id, scorers[index]) ?? undefined
        const part = scorePart(
          id,
          result,
          aggregate === 'mean' ? undefined : threshold,
          aggregate === 'mean' ? 'min' : direction,
          { range, row },
        )
        // Scorers of different ranges are averaged on one scale: each score's share of its range.
        shares.push(part.score === undefined ? 0 : scoreShare(part.score, range))
        // Under a mean, one scorer has no threshold of its own: only its score counts.
        if (aggregate === 'mean') delete part.threshold
        parts.push(part)
      }
      if (!several) {
        const [part] = parts as [ScorerPart]
        return {
          satisfied: part.passed,
          score: part.score,
          threshold: part.threshold,
          verdicts: part.verdicts,
          reason: part.reason,
          judgeCalls,
          scorerId: part.id,
          decidedByPassed: part.threshold === undefined,
          share: part.share,
          metadata: part.metadata,
          ...(direction === 'max' ? { direction } : {}),
        }
      }
      const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length
      return {
        satisfied:
          aggregate === 'mean'
            ? reaches(mean, threshold ?? 1, direction)
            : parts.every((part) => part.passed),
        score: aggregate === 'mean' ? mean : undefined,
        threshold: aggregate === 'mean' ? (threshold ?? 1) : threshold,
        judgeCalls,
        scorerId: parts.map((part) => part.id).join(', '),
        aggregate,
        parts,
        ...(direction === 'max' ? { direction } : {}),
      }
    },
    explain: scorerFailure,
  })
}

// The ids of the scorers given, those that are scorers at all; undefined when none is.
function knownScorerIds(value: unknown): string | undefined {
  try {
    const list = Array.isArray(value) ? value : [value]
    const ids = list.filter((item) => isScorer(item)).map((item) => scorerName(item as ScorerLike))
    return ids.length > 0 ? ids.join(', ') : undefined
  } catch {
    return undefined
  }
}

function checkScorers(value: unknown): ScorerLike[] {
  const list = Array.isArray(value) ? value : [value]
  if (Array.isArray(value) && value.length === 0) {
    throw new UsageError(messages.invalidScorer('toPassScorer', value))
  }
  for (const item of list) {
    if (!isScorer(item)) throw new UsageError(messages.invalidScorer('toPassScorer', item))
  }
  return list as ScorerLike[]
}

function choice<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (!choices.includes(value as T)) {
    throw new UsageError(messages.invalidChoice(`toPassScorer() option "${name}"`, value, choices))
  }
  return value as T
}

/** A score against its threshold: at least it (`min`), or at most it (`max`, lower is better). @internal */
export function reaches(score: number, threshold: number, direction: 'min' | 'max'): boolean {
  return direction === 'max' ? score <= threshold : score >= threshold
}

// One scorer's outcome: on its threshold when one is given, else on its own `passed`, else >= 1.
function scorePart(
  id: string,
  result: Record<string, any>,
  threshold: number | undefined,
  direction: 'min' | 'max',
  contract: { range: ScoreRange | undefined; row: string | undefined },
): ScorerPart {
  const score = result.score
  const byPassed = threshold === undefined && typeof result.passed === 'boolean'
  if (!byPassed && typeof score !== 'number') {
    throw new UsageError(messages.matcherNoScore('toPassScorer', id, score))
  }
  // A scorer decided by its own `passed` may give no score; a score it gives reaches the record,
  // the means and the gates all the same, so it is held to the contract like any other.
  if (score !== undefined) checkScore(id, score, contract.range, contract.row)
  return {
    id,
    passed: byPassed ? Boolean(result.passed) : reaches(score as number, threshold ?? 1, direction),
    score: typeof score === 'number' ? score : undefined,
    threshold: byPassed ? undefined : (threshold ?? 1),
    verdicts: result.verdicts as Verdict[] | undefined,
    reason: typeof result.reason === 'string' ? result.reason : undefined,
    share: typeof result.share === 'number' ? result.share : undefined,
    metadata: isObject(result.metadata) ? result.metadata : undefined,
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A scorer built with `type: 'agent'`: rubricate's exposes `type`, Mastra's `config.type` too. */
function isAgentScorer(scorer: object): boolean {
  const { type, config } = scorer as { type?: unknown; config?: { type?: unknown } }
  return type === 'agent' || config?.type === 'agent'
}
