/**
 * Values frozen all the way down, by {@link deepFreeze}: what rubricate shares between requests
 * (the judge's reply schema) cannot be changed by one of them.
 */

const frozen = new WeakSet<object>()

/** Freeze `value` and everything in it; returns it. @internal */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || frozen.has(value)) return value
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  Object.freeze(value)
  frozen.add(value)
  return value
}
