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
const BACKSLASH = 0x5c

/**
 * The first key that some object in `source` holds twice, or undefined. `JSON.parse` keeps the
 * last of two equal keys without a word, so a reply saying `"satisfied": false, "satisfied": true`
 * would silently read as satisfied: that reply says two things, and neither may become a verdict.
 * Keys are compared after their escapes are decoded (`"\u0073atisfied"` is `"satisfied"`), as
 * `JSON.parse` compares them. `source` must be text that `JSON.parse` accepts.
 * @internal
 */
export function duplicateKey(source: string): DuplicateKey | undefined {
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
