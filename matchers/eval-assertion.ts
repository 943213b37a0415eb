/**
 * What `describeEval` tells a matcher it calls about the assertion: its row, and the turn it
 * judges. It travels in the matcher's options under a symbol (no user writes it, and
 * `checkOptions` lists only string keys), because describeEval reaches the matchers through
 * Vitest's `expect`, which takes no other argument.
 * @internal
 */
export const EVAL_ASSERTION: unique symbol = Symbol.for('rubricate.evalAssertion') as never

/** An eval row's assertion: see {@link EVAL_ASSERTION}. @internal */
export interface EvalAssertion {
  /** The row, by its test's name: named in a score-contract error. */
  row: string
  /** The turn of a multi-turn row that the assertion judges, put on its record. */
  turn?: number | undefined
}

/** The eval assertion in a matcher's options, if describeEval put one there. @internal */
export function evalAssertionOf(options: unknown): EvalAssertion | undefined {
  if (typeof options !== 'object' || options === null) return undefined
  return (options as { [EVAL_ASSERTION]?: EvalAssertion })[EVAL_ASSERTION]
}
