import type { Verdict } from './records'

/**
 * The words of one criterion's verdict, decided once for every medium (the failure message, the
 * reporter's line, the test annotation, the agent's feedback); each medium only adds its symbols,
 * colours and gate. Untrusted parts (`criterion`, `reasoning`) are raw: the medium gates them.
 * @internal
 */
export interface VerdictWords {
  /** `met`, `unmet` (a criterion that gates), or `optional-unmet`. */
  state: 'met' | 'unmet' | 'optional-unmet'
  /** `[required]`/`[optional]`, or under fraction scoring with its weight. */
  tag: string
  criterion: string
  /** The judge's reasoning; shown by every medium for an unmet criterion. */
  reasoning: string
  /** ` (2/3 samples)` when the judge was sampled more than once, else empty. */
  samples: string
}

/** The words of `verdict` (see {@link VerdictWords}). @internal */
export function verdictWords(verdict: Verdict): VerdictWords {
  const { agreement } = verdict
  return {
    state: verdict.satisfied ? 'met' : verdict.required ? 'unmet' : 'optional-unmet',
    tag: verdictTag(verdict),
    criterion: verdict.criterion,
    reasoning: verdict.reasoning,
    samples:
      agreement && agreement.total > 1
        ? ` (${agreement.satisfied}/${agreement.total} samples)`
        : '',
  }
}

/** A verdict's tag: `[required]`/`[optional]`, or under fraction scoring its weight too. @internal */
export function verdictTag(verdict: Verdict): string {
  if (verdict.weight === undefined) return verdict.required ? '[required]' : '[optional]'
  return verdict.required ? `[required, weight ${verdict.weight}]` : `[weight ${verdict.weight}]`
}

/** Text as one line: whitespace and line breaks collapsed. Does not gate. @internal */
export function collapseLines(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
