const NOT_SCORABLE: unique symbol = Symbol.for('rubricate.notScorable') as never

/** The value returned by {@link notScorable}: stops a scorer's pipeline without a score. */
export interface NotScorable {
  readonly [NOT_SCORABLE]: true
  readonly reason?: string | undefined
}

/**
 * Return this from a function step when the run cannot be scored (no output, wrong kind of
 * input...): the pipeline stops, no judge is called, and the result has `notScorable` and no score.
 *
 * @example
 * .preprocess(({ run }) => (run.output ? run.output : notScorable('The agent produced no output.')))
 */
export function notScorable(reason?: string): NotScorable {
  return reason === undefined ? { [NOT_SCORABLE]: true } : { [NOT_SCORABLE]: true, reason }
}

/** True for the value {@link notScorable} returns (from any copy of rubricate). */
export function isNotScorable(value: unknown): value is NotScorable {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [NOT_SCORABLE]?: unknown })[NOT_SCORABLE] === true
  )
}
