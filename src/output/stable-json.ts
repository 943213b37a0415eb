/**
 * JSON for showing a value to a judge: keys sorted recursively (so the same value always reads the
 * same, and a replayed cassette key does not change with property order), pretty-printed, and
 * total: circular references, binary data, bigints, functions, values whose getter or `toJSON`
 * throws and nesting deeper than 100 levels render as short placeholders instead of throwing.
 * @internal
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(normalise(value, new Set()), null, 2) ?? String(value)
}

// Deeper than any output worth judging, and far from the call stack's limit.
const MAX_DEPTH = 100

function normalise(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'undefined' || typeof value === 'symbol') return undefined
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`
  const object = value as object
  const binary = binaryLength(object)
  if (binary !== undefined) return `[binary: ${binary} bytes]`
  if (ancestors.has(object)) return '[circular]'
  if (ancestors.size >= MAX_DEPTH) return '[nested too deep]'
  ancestors.add(object)
  try {
    const withJson = object as { toJSON?: unknown }
    if (typeof withJson.toJSON === 'function') {
      let json: unknown
      try {
        json = (withJson.toJSON as () => unknown).call(object)
      } catch {
        // Like a getter that throws: the value cannot be shown, the rest of the output still can.
        return '[unreadable]'
      }
      return normalise(json, ancestors)
    }
    if (Array.isArray(object)) return object.map((item) => normalise(item, ancestors) ?? null)
    if (object instanceof Map) return normalise(Object.fromEntries(object), ancestors)
    if (object instanceof Set) return normalise([...object], ancestors)
    if (object instanceof Error) {
      return { name: object.name, message: object.message }
    }
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(object).sort()) {
      let item: unknown
      try {
        item = (object as Record<string, unknown>)[key]
      } catch {
        item = '[unreadable]'
      }
      const normalised = normalise(item, ancestors)
      if (normalised !== undefined) out[key] = normalised
    }
    return out
  } finally {
    ancestors.delete(object)
  }
}

/** Byte length of binary data (Buffer, typed arrays, ArrayBuffer, DataView, Blob), else undefined. @internal */
export function binaryLength(value: object): number | undefined {
  if (ArrayBuffer.isView(value)) return value.byteLength
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return value.byteLength
  if (typeof Blob !== 'undefined' && value instanceof Blob) return value.size
  return undefined
}
