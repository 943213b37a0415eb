/**
 * Freeze `value` and everything in it; returns it. A value shared by every reader (a reply
 * schema the store shares between entries) cannot then be changed by one of them for the others.
 * @internal
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  Object.freeze(value)
  return value
}
