/**
 * Set the own member `name` of a plain object built from recorded JSON. A plain assignment of
 * `__proto__` calls `Object.prototype`'s setter instead: the member is dropped (or, for an object
 * value, becomes the prototype), so a reply that holds one would be written or replayed without
 * it. `JSON.parse` makes `__proto__` an own member; this keeps it one.
 * @internal
 */
export function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  } else target[name] = value
}
