import { canonicalJson, setMember, sha256Hex } from './canonical-json'

/**
 * The lossless, readable encoding of the values in a v2 entry (ARCHITECTURE 7.2). Decoding an
 * encoded value gives back exactly the value recorded, so replay stays byte-for-byte:
 * - a string holding a line break is `{ "$lines": [...] }`, its lines (joined with `\n` again);
 * - a base64 embedding is `{ "$float32": [...] }`, its numbers (re-encoded to the same base64);
 * - a reply schema is `{ "$sharedSchema": "<hash>" }`, stored once in `_shared/schemas/<hash>.json`;
 * - an object that would read as one of these markers (one key starting with `$`) is wrapped in
 *   `{ "$escape": ... }`.
 */

/** A schema referenced from an entry: its hash and value. @internal */
export interface SharedSchema {
  hash: string
  schema: unknown
}

/** Loads a referenced schema by hash (the store reads `_shared/schemas/<hash>.json`). @internal */
export type SchemaLoader = (hash: string) => unknown

const MARKERS = new Set(['$lines', '$float32', '$sharedSchema', '$escape'])

/** Encode a value for the file. @internal */
export function encodeValue(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\n') ? { $lines: value.split('\n') } : value
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(encodeValue)
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(source)) {
    setMember(
      out,
      name,
      name === 'embedding' && typeof item === 'string' ? encodeEmbedding(item) : encodeValue(item),
    )
  }
  return looksLikeMarker(source) ? { $escape: out } : out
}

/**
 * Decode a value read from a file; `loadSchema` resolves `$sharedSchema` references. Decodes in
 * place, and so takes a value just parsed, that nothing else holds: what was not encoded is not
 * copied (replay decodes every entry it serves).
 * @internal
 */
export function decodeValue(value: unknown, loadSchema: SchemaLoader): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      const decoded = decodeValue(item, loadSchema)
      if (decoded !== item) value[i] = decoded
    }
    return value
  }
  const source = value as Record<string, unknown>
  const keys = Object.keys(source)
  if (keys.length === 1) {
    const inner = source[keys[0] as string]
    switch (keys[0]) {
      case '$lines':
        if (Array.isArray(inner) && inner.every((line) => typeof line === 'string'))
          return inner.join('\n')
        throw new Error('a "$lines" value is not a list of strings')
      case '$float32':
        if (Array.isArray(inner) && inner.every((n) => typeof n === 'number'))
          return Buffer.from(new Float32Array(inner).buffer).toString('base64')
        throw new Error('a "$float32" value is not a list of numbers')
      case '$sharedSchema':
        if (typeof inner !== 'string')
          throw new Error('a "$sharedSchema" reference is not a string')
        // Shared and frozen (the store freezes what it loads): entries are only read.
        return loadSchema(inner)
      case '$escape':
        if (inner === null || typeof inner !== 'object' || Array.isArray(inner))
          throw new Error('an "$escape" value is not an object')
        return decodeMembers(inner as Record<string, unknown>, Object.keys(inner), loadSchema)
    }
  }
  return decodeMembers(source, keys, loadSchema)
}

function decodeMembers(
  source: Record<string, unknown>,
  keys: readonly string[],
  loadSchema: SchemaLoader,
): Record<string, unknown> {
  for (const name of keys) {
    const item = source[name]
    const decoded = decodeValue(item, loadSchema)
    if (decoded !== item) setMember(source, name, decoded)
  }
  return source
}

function looksLikeMarker(source: Record<string, unknown>): boolean {
  const keys = Object.keys(source)
  return keys.length === 1 && MARKERS.has(keys[0] as string)
}

// Only when the numbers give back the very same text: a non-canonical base64 stays a string.
function encodeEmbedding(text: string): unknown {
  const bytes = Buffer.from(text, 'base64')
  if (bytes.length % 4 !== 0 || bytes.toString('base64') !== text) return text
  const numbers = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))
  return { $float32: numbers }
}

/** Where a request body carries its reply schema: chat's `response_format`, the Responses API's `text.format`. */
const SCHEMA_PATHS: readonly (readonly string[])[] = [
  ['response_format', 'json_schema', 'schema'],
  ['text', 'format', 'schema'],
]

/**
 * Encode a request body for the file, its reply schema replaced by a `$sharedSchema` reference
 * and handed back to be stored once. The key is computed over the full body before this, so the
 * reference changes no key.
 * @internal
 */
export function encodeBody(body: unknown): { body: unknown; schema?: SharedSchema } {
  const encoded = encodeValue(body)
  for (const path of SCHEMA_PATHS) {
    const parent = objectAt(body, path.slice(0, -1))
    const name = path[path.length - 1] as string
    const schema = parent?.[name]
    if (schema === null || typeof schema !== 'object') continue
    // Its encoded parent is a plain object too, unless a marker-like object on the way was escaped.
    if (!objectAt(encoded, path.slice(0, -1))) continue
    const hash = sha256Hex(canonicalJson(schema)).slice(0, 16)
    return {
      body: replaceAt(encoded, path, { $sharedSchema: hash }),
      schema: { hash, schema },
    }
  }
  return { body: encoded }
}

function objectAt(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let current = value
  for (const name of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
    current = (current as Record<string, unknown>)[name]
  }
  if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
  return current as Record<string, unknown>
}

function replaceAt(value: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const source = value as Record<string, unknown>
  const [name, ...rest] = path as [string, ...string[]]
  return { ...source, [name]: replaceAt(source[name], rest, replacement) }
}
