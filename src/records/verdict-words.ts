// The one place a verdict and a rubric's outcome are worded. Every medium (the failure message,
// the agent's feedback, the reporter's lines, Markdown, HTML, the test annotation and so JUnit)
// takes its words from here and adds only its symbols, colours, layout and gate;
// `test/house/verdict-words.test.ts` holds the words to this file.
import type { Verdict } from './records'

/** A criterion's state: met, unmet and gating, or unmet and optional. @internal */
export type VerdictState = 'met' | 'unmet' | 'optional-unmet'

/** The state of `verdict` (see {@link VerdictState}). @internal */
export function verdictState(verdict: Pick<Verdict, 'satisfied' | 'required'>): VerdictState {
  return verdict.satisfied ? 'met' : verdict.required ? 'unmet' : 'optional-unmet'
}

/** A state as the word a criterion line starts with, where the tag says required or optional. @internal */
export const STATE_WORD: Readonly<Record<VerdictState, string>> = {
  met: 'met',
  unmet: 'unmet',
  'optional-unmet': 'unmet',
}

/** A state named in full, where it stands alone (a cell, a title, a change). @internal */
export const STATE_LABEL: Readonly<Record<VerdictState, string>> = {
  met: 'met',
  unmet: 'required, unmet',
  'optional-unmet': 'optional, unmet',
}

/** A verdict's tag: `[required]`/`[optional]`, or under fraction scoring its weight too. @internal */
export function verdictTag(verdict: Pick<Verdict, 'required' | 'weight'>): string {
  if (verdict.weight === undefined) return verdict.required ? '[required]' : '[optional]'
  return verdict.required ? `[required, weight ${verdict.weight}]` : `[weight ${verdict.weight}]`
}

/** The tag's words without its brackets, where the medium draws its own. @internal */
export function requirement(verdict: Pick<Verdict, 'required' | 'weight'>): string {
  return verdictTag(verdict).slice(1, -1)
}

/** `2/3 samples` when the judge was sampled more than once, else empty. @internal */
export function samplesCount(verdict: Pick<Verdict, 'agreement'>): string {
  const { agreement } = verdict
  return agreement && agreement.total > 1 ? `${agreement.satisfied}/${agreement.total} samples` : ''
}

/**
 * The words of one criterion's verdict. Untrusted parts (`criterion`, `reasoning`) are raw: the
 * medium gates them.
 * @internal
 */
export interface VerdictWords {
  state: VerdictState
  tag: string
  criterion: string
  reasoning: string
  /** ` (2/3 samples)` when the judge was sampled more than once, else empty. */
  samples: string
}

/** The words of `verdict` (see {@link VerdictWords}). @internal */
export function verdictWords(verdict: Verdict): VerdictWords {
  const samples = samplesCount(verdict)
  return {
    state: verdictState(verdict),
    tag: verdictTag(verdict),
    criterion: verdict.criterion,
    reasoning: verdict.reasoning,
    samples: samples ? ` (${samples})` : '',
  }
}

/** How one medium draws each part of a criterion line: its symbols, colours and gate. @internal */
export interface CriterionMedium {
  mark(state: VerdictState): string
  tag(tag: string): string
  criterion(text: string, state: VerdictState): string
  /** The reasoning, with what leads it in this layout (`: ` inline, `→ ` below). */
  reasoning(text: string): string
  samples(samples: string): string
}

/**
 * A criterion as one line, `mark tag criterion[: reasoning][ (2/3 samples)]`, the reasoning only
 * when unmet (the reporter's line, the test annotation).
 * @internal
 */
export function criterionLine(verdict: Verdict, medium: CriterionMedium): string {
  const words = verdictWords(verdict)
  const why = words.state !== 'met' && words.reasoning ? medium.reasoning(words.reasoning) : ''
  return `${criterionHead(words, medium)}${why}${words.samples ? medium.samples(words.samples) : ''}`
}

/**
 * A criterion as a block, `mark tag criterion[ (2/3 samples)]` and its reasoning on the next line
 * whether met or not (the failure message, the agent's feedback).
 * @internal
 */
export function criterionBlock(verdict: Verdict, medium: CriterionMedium): [string, string] {
  const words = verdictWords(verdict)
  const samples = words.samples ? medium.samples(words.samples) : ''
  return [`${criterionHead(words, medium)}${samples}`, medium.reasoning(words.reasoning)]
}

function criterionHead(words: VerdictWords, medium: CriterionMedium): string {
  const { state } = words
  return `${medium.mark(state)} ${medium.tag(words.tag)} ${medium.criterion(words.criterion, state)}`
}

/** What a rubric's outcome line counts. @internal */
export interface RubricCounts {
  /** Gating criteria unmet (under fraction scoring: required ones). */
  unmet: number
  /** Gating criteria in all. */
  gating: number
  /** Some criterion is marked required (the count says "required criteria"). */
  anyRequired: boolean
  /** Under fraction scoring: the weighted share met, and its threshold, formatted. */
  share?: { share: string; threshold: string; reached: boolean } | undefined
}

/** The outcome of a rubric: `Rubric satisfied: ...` or `Rubric not satisfied: ...`. @internal */
export function rubricOutcome(counts: RubricCounts): string {
  const { unmet, share } = counts
  const kind = counts.anyRequired ? 'required ' : ''
  if (share && unmet > 0) {
    return `Rubric not satisfied: ${unmet} required ${criteria(unmet)} unmet (share ${share.share}, threshold ${share.threshold}).`
  }
  if (share) {
    return share.reached
      ? `Rubric satisfied: share ${share.share} of the criteria met, threshold ${share.threshold}.`
      : `Rubric not satisfied: share ${share.share} of the criteria met, below the threshold ${share.threshold}.`
  }
  return unmet === 0
    ? `Rubric satisfied: every ${kind}criterion is met.`
    : `Rubric not satisfied: ${unmet} of ${counts.gating} ${kind}${criteria(counts.gating)} unmet.`
}

/** Under `.not`, the rubric that was satisfied. @internal */
export function rubricSatisfiedNegated(share?: { share: string; threshold: string }): string {
  return share
    ? `Expected the rubric not to be satisfied, but share ${share.share} of the criteria met reaches the threshold ${share.threshold} and every required criterion is met.`
    : 'Expected at least one required criterion to be unmet, but every required criterion is met.'
}

/** The outcome of a rubric scorer that gave a reason but no verdicts. @internal */
export function rubricReasonOnly(negated: boolean): string {
  return negated
    ? 'Expected the rubric not to be satisfied, but the scorer passed it:'
    : 'Rubric not satisfied:'
}

function criteria(count: number): string {
  return count === 1 ? 'criterion' : 'criteria'
}
