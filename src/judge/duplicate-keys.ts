/** A key that one JSON object of a text holds twice, and where. @internal */
export interface DuplicateKey {
  key: string
  /** The path of the object that holds it, as `criteria.c2` or `items[0]`; `''` at the top. */
  path: string
}

interface Frame {
  /** Keys seen so far in an object; undefined for an array. */
  keys: Set<string> | undefined
  /** An object expects a key next (after `{` or `,`). */
  expectKey: boolean
  /** The current member's key (objects) or index (arrays), for the path. */
  at: string | number
}

const QUOTE = 0x22
// No parsed value given: the text alone is walked.
const UNPARSED: unique symbol = Symbol('unparsed')
const BACKSLASH = 0x5c

/**
 * The first key that some object in `source` holds twice, or undefined. `JSON.parse` keeps the
 * last of two equal keys without a word, so a reply saying `"satisfied": false, "satisfied": true`
 * would silently read as satisfied: that reply says two things, and neither may become a verdict.
 * Keys are compared after their escapes are decoded (`"\u0073atisfied"` is `"satisfied"`), as
 * `JSON.parse` compares them. `source` must be text that `JSON.parse` accepts; `parsed`, when
 * given, is what it returned.
 * @internal
 */
export function duplicateKey(source: string, parsed: unknown = UNPARSED): DuplicateKey | undefined {
  // Every key in the text is a member of the value unless some object holds one twice: when the
  // counts agree there is nothing to find, and the text is not walked character by character.
  if (parsed !== UNPARSED && keysInText(source) === keysInValue(parsed)) return undefined
  const frames: Frame[] = []
  for (let i = 0; i < source.length; i++) {
    const char = source.charCodeAt(i)
    if (char === QUOTE) {
      const end = stringEnd(source, i)
      const top = frames.at(-1)
      if (top?.keys && top.expectKey) {
        const key = decodeString(source, i, end)
        if (top.keys.has(key)) return { key, path: pathOf(frames.slice(0, -1)) }
        top.keys.add(key)
        top.at = key
        top.expectKey = false
      }
      i = end
      continue
    }
    switch (source[i]) {
      case '{':
        frames.push({ keys: new Set(), expectKey: true, at: '' })
        break
      case '[':
        frames.push({ keys: undefined, expectKey: false, at: 0 })
        break
      case ',': {
        const top = frames.at(-1)
        if (top?.keys) top.expectKey = true
        else if (top) top.at = (top.at as number) + 1
        break
      }
      case '}':
      case ']':
        frames.pop()
        break
    }
  }
  return undefined
}

const STRING = /"(?:[^"\\]|\\.)*"/g

// The keys of JSON text: outside its strings, a colon follows each key and nothing else.
function keysInText(source: string): number {
  const bare = source.includes(':') ? source.replace(STRING, '') : ''
  let count = 0
  for (let at = bare.indexOf(':'); at >= 0; at = bare.indexOf(':', at + 1)) count++
  return count
}

// The members of every object in a parsed value, walked without recursion (JSON may nest deeper
// than the stack).
function keysInValue(value: unknown): number {
  let count = 0
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (item === null || typeof item !== 'object') continue
    if (Array.isArray(item)) {
      for (const member of item)
        if (member !== null && typeof member === 'object') pending.push(member)
      continue
    }
    for (const key in item) {
      count++
      const member = (item as Record<string, unknown>)[key]
      if (member !== null && typeof member === 'object') pending.push(member)
    }
  }
  return count
}

/** Index of the quote that closes the string opening at `start`. */
function stringEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    const char = source.charCodeAt(i)
    if (char === BACKSLASH) i++
    else if (char === QUOTE) return i
  }
  return source.length - 1
}

function decodeString(source: string, start: number, end: number): string {
  const raw = source.slice(start, end + 1)
  // Most keys have no escape: slicing them is enough, and far cheaper than parsing.
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
}

function pathOf(frames: readonly Frame[]): string {
  let path = ''
  for (const frame of frames) {
    if (frame.keys) path += path === '' ? String(frame.at) : `.${String(frame.at)}`
    else path += `[${String(frame.at)}]`
  }
  return path
}
