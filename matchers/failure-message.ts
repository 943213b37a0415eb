import { messages } from '../src/messages'
import type {
  CalibrationRecord,
  JudgeCall,
  ScorerPartRecord,
  Verdict,
} from '../src/records/records'
import {
  type CriterionMedium,
  criterionBlock,
  rubricOutcome,
  rubricReasonOnly,
  rubricSatisfiedNegated,
} from '../src/records/verdict-words'
import { formatShare, rubricCounts } from '../src/rubric/rubric-reason'

/** One scorer of several in a `toPassScorer([a, b])` assertion. @internal */
export type ScorerPart = ScorerPartRecord

/** What an assertion found out, before `.not` is applied. @internal */
export interface Evaluation {
  /** The rubric is satisfied / the scorer passed. */
  satisfied: boolean
  score?: number | undefined
  threshold?: number | undefined
  verdicts?: Verdict[] | undefined
  reason?: string | undefined
  judgeCalls: JudgeCall[]
  scorerId?: string | undefined
  /** toPassScorer decided on the scorer's `passed` rather than on a threshold. */
  decidedByPassed?: boolean | undefined
  /** toAgreeWithLabels: what the calibration measured. */
  calibration?: CalibrationRecord | undefined
  /** A rubric scored with `scoring: 'fraction'`: the weighted share of criteria met. */
  share?: number | undefined
  /** A scorer result's metadata. */
  metadata?: Record<string, unknown> | undefined
  /** Several scorers: how they were combined, and each one's outcome. */
  aggregate?: 'all' | 'mean' | undefined
  parts?: ScorerPart[] | undefined
  /** `'max'`: a lower-is-better score, compared as at most the threshold. */
  direction?: 'max' | undefined
  /** Set: the test is skipped with this note instead of passing or failing (`notScorable: 'skip'`). */
  skip?: string | undefined
}

/** The body of a failed `toSatisfyRubric` (under the matcher hint). @internal */
export function rubricFailure(evaluation: Evaluation, negated: boolean, preview: string): string {
  const { verdicts } = evaluation
  const lines =
    verdicts && verdicts.length > 0
      ? [rubricHead(evaluation, verdicts, negated), '', ...verdictLines(verdicts)]
      : [rubricReasonOnly(negated), '', evaluation.reason ?? '']
  return [...lines, '', ...trailer(evaluation, preview)].join('\n')
}

// The rubric's outcome; a failure never reached its share's threshold.
function rubricHead(evaluation: Evaluation, verdicts: readonly Verdict[], negated: boolean) {
  const threshold = evaluation.threshold ?? 1
  const share =
    evaluation.share === undefined
      ? undefined
      : { share: formatShare(evaluation.share), threshold: formatShare(threshold), reached: false }
  if (negated) return rubricSatisfiedNegated(share)
  return rubricOutcome({ ...rubricCounts(verdicts, threshold), share })
}

/** The body of a failed `toPassScorer` (under the matcher hint). @internal */
export function scorerFailure(evaluation: Evaluation, negated: boolean, preview: string): string {
  if (evaluation.parts) return scorersFailure(evaluation, evaluation.parts, negated, preview)
  const id = evaluation.scorerId ?? 'scorer'
  const score = evaluation.score ?? Number.NaN
  const threshold = evaluation.threshold ?? 1
  const head = evaluation.decidedByPassed
    ? negated
      ? messages.scorerPassedNegated(id, score)
      : messages.scorerNotPassed(id, score)
    : evaluation.direction === 'max'
      ? negated
        ? messages.scorerWithinMaxNegated(id, score, threshold)
        : messages.scorerAboveMax(id, score, threshold)
      : negated
        ? messages.scorerReachedNegated(id, score, threshold)
        : messages.scorerBelow(id, score, threshold)
  const lines = [head]
  if (evaluation.verdicts && evaluation.verdicts.length > 0) {
    lines.push('', ...verdictLines(evaluation.verdicts))
  } else if (evaluation.reason) {
    lines.push(messages.failureReason(evaluation.reason))
  }
  if (evaluation.metadata) lines.push(messages.failureMetadata(compactJson(evaluation.metadata)))
  return [...lines, '', ...trailer(evaluation, preview)].join('\n')
}

// Several scorers: the aggregate's verdict, then one line per scorer with its score and reason.
function scorersFailure(
  evaluation: Evaluation,
  parts: readonly ScorerPart[],
  negated: boolean,
  preview: string,
): string {
  const failed = parts.filter((part) => !part.passed).length
  const head =
    evaluation.aggregate === 'mean'
      ? messages.scorersMean(
          evaluation.score ?? Number.NaN,
          evaluation.threshold ?? 1,
          negated,
          evaluation.direction,
        )
      : messages.scorersAll(failed, parts.length, negated)
  const lines = [head, '']
  for (const part of parts) {
    const mark = evaluation.aggregate === 'mean' ? '·' : part.passed ? '✓' : '✗'
    const score = part.score === undefined ? '' : ` score ${part.score}`
    const bound = evaluation.direction === 'max' ? 'at most' : 'threshold'
    const threshold = part.threshold === undefined ? '' : `, ${bound} ${part.threshold}`
    lines.push(`  ${mark} "${part.id}":${score}${threshold}`)
    if (part.reason) lines.push(`      → ${part.reason.trim().split('\n')[0]}`)
    if (part.metadata) lines.push(`      ${messages.failureMetadata(compactJson(part.metadata))}`)
  }
  return [...lines, '', ...trailer(evaluation, preview)].join('\n')
}

/**
 * The judged output under a failure. JSON text is shown indented, unescaped, and cut by lines (at
 * most 30), so what is shown still reads as JSON; other text is quoted and cut at 200 characters.
 * @internal
 */
export function outputLine(text: string): string {
  const trimmed = text.trim()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      parsed = undefined
    }
    if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) {
      const all = JSON.stringify(parsed, null, 2).split('\n')
      const shown = all
        .slice(0, 30)
        .map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line))
      return messages.failureOutputJson(
        [...shown, ...(shown.length < all.length ? ['…'] : [])].join('\n'),
        shown.length,
        all.length,
      )
    }
  }
  return messages.failureOutput(text.slice(0, 200), text.length > 200)
}

/** Compact JSON, cut at 300 characters. @internal */
export function compactJson(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 300 ? `${text.slice(0, 297)}...` : text
}

const MARKS = { met: '✓', unmet: '✗', 'optional-unmet': '○' } as const

const MESSAGE: CriterionMedium = {
  mark: (state) => `  ${MARKS[state]}`,
  tag: (tag) => tag,
  criterion: (text) => text,
  reasoning: (text) => `      → ${text}`,
  samples: (samples) => samples,
}

/** One line per criterion (`✓` met, `✗` required unmet, `○` optional unmet), reasoning under it. @internal */
export function verdictLines(verdicts: readonly Verdict[]): string[] {
  return verdicts.flatMap((verdict) => {
    const [head, reasoning] = criterionBlock(verdict, MESSAGE)
    return verdict.reasoning ? [head, reasoning] : [head]
  })
}

/** `Judge: model · replayed · 812 tokens`, or undefined when no judge was called. @internal */
export function judgeLine(calls: readonly JudgeCall[]): string | undefined {
  if (calls.length === 0) return undefined
  const models = [...new Set(calls.map((c) => c.model))].join(', ')
  const counts = new Map<string, number>()
  for (const call of calls) counts.set(call.source, (counts.get(call.source) ?? 0) + 1)
  const sources =
    counts.size === 1
      ? [...counts.keys()].join('')
      : [...counts].map(([source, n]) => `${n} ${source}`).join(', ')
  const withUsage = calls.filter((c) => c.usage)
  const tokens =
    withUsage.length > 0
      ? withUsage.reduce((sum, c) => sum + (c.usage?.totalTokens ?? 0), 0)
      : undefined
  return messages.failureJudge(models, sources, tokens)
}

function trailer(evaluation: Evaluation, preview: string): string[] {
  const lines = [outputLine(preview)]
  const judge = judgeLine(evaluation.judgeCalls)
  if (judge) lines.push(judge)
  return lines
}
