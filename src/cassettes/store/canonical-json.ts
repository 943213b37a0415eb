/**
 * Canonical JSON (ARCHITECTURE.md §7.3): object keys sorted recursively, array order kept,
 * `undefined` dropped. Two requests that mean the same thing serialise to the same text, whatever
 * order their client wrote the keys in. Beside it, the two JSON helpers the store, the key and the
 * redaction share: the digest of a text, and an own member set safely on recorded JSON.
 */

import { hash } from 'node:crypto'

/**
 * The sha256 of a text, as hex. One call, without the stream object `createHash` builds: it runs
 * for every replayed request.
 * @internal
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex')
}

/** The canonical text of a JSON value, written in one pass (no sorted copy is built). @internal */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null'
}

function write(value: unknown): string | undefined {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      break
    default:
      return undefined
  }
  return writeObject(value)
}

function writeObject(value: object): string | undefined {
  // Appended piece by piece, without a sorted copy: this runs on every replay and over every
  // entry in `verify`.
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ','
      out += write(value[i]) ?? 'null'
    }
    return `${out}]`
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return write(toJSON.call(value))
  const source = value as Record<string, unknown>
  const keys = sortedKeys(source)
  let out = '{'
  for (const key of keys) {
    const member = write(source[key])
    if (member === undefined) continue
    if (out.length > 1) out += ','
    out += JSON.stringify(key)
    out += ':'
    out += member
  }
  return `${out}}`
}

// An object's keys in sorted order (by UTF-16 code units).
function sortedKeys(source: Record<string, unknown>): string[] {
  return Object.keys(source).sort()
}

/**
 * A copy of `value` whose objects have their keys in sorted order, without `undefined` members:
 * with an indent, the reviewable form written to cassette files.
 * @internal
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => (item === undefined ? null : sortKeysDeep(item)))
  }
  if (value === null || typeof value !== 'object') return value
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return sortKeysDeep((value as { toJSON(): unknown }).toJSON())
  }
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(source).sort()) {
    const member = source[key]
    if (member !== undefined && typeof member !== 'function') {
      setMember(out, key, sortKeysDeep(member))
    }
  }
  return out
}

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
