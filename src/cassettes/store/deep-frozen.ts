/**
 * Values frozen all the way down, by {@link deepFreeze}. Nothing can change them, so the work
 * done on them for every request (canonical JSON for the key, redaction) can be done once: the
 * judge's reply schema is most of a judge request's body and the same in every call.
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

/** True for an object that {@link deepFreeze} froze. @internal */
export function isDeepFrozen(value: object): boolean {
  return frozen.has(value)
}
