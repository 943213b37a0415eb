/**
 * The JSON paths where two values differ, such as `messages[1].content`: what a cassette miss
 * shows so that nobody has to diff two request bodies by eye.
 */

/** Differing paths of `a` and `b`, in document order, at most `limit` of them. @internal */
export function diffPaths(a: unknown, b: unknown, limit = 1000): string[] {
  const out: string[] = []
  walk(a, b, '', out, limit)
  return out
}

function walk(a: unknown, b: unknown, path: string, out: string[], limit: number): void {
  if (out.length >= limit || a === b) return
  if (Array.isArray(a) && Array.isArray(b)) {
    const length = Math.max(a.length, b.length)
    for (let i = 0; i < length; i++) walk(a[i], b[i], `${path}[${i}]`, out, limit)
    return
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    for (const key of keys) walk(a[key], b[key], memberPath(path, key), out, limit)
    return
  }
  out.push(path || '(the whole body)')
}

function memberPath(path: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
  if (segment === key) return path ? `${path}.${key}` : key
  return `${path}[${segment}]`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Where a long string changed: its path and a short window of the text before and after. @internal */
export interface TextChange {
  path: string
  before: string
  after: string
}

/**
 * The first string of `a` that differs from its counterpart in `b`, with a window of `context`
 * characters either side of the difference, `…` where cut: a miss inside a long prompt then says
 * what changed (here a date), not only where.
 * @internal
 */
export function firstTextChange(a: unknown, b: unknown, context = 24): TextChange | undefined {
  const visit = (x: unknown, y: unknown, path: string): TextChange | undefined => {
    if (x === y) return undefined
    if (typeof x === 'string' && typeof y === 'string') {
      let start = 0
      while (start < x.length && start < y.length && x[start] === y[start]) start++
      let end = 0
      while (
        end < x.length - start &&
        end < y.length - start &&
        x[x.length - 1 - end] === y[y.length - 1 - end]
      ) {
        end++
      }
      const cut = (text: string) => {
        const from = Math.max(0, start - context)
        const to = Math.min(text.length, text.length - end + context)
        return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`
      }
      return { path: path || '(the whole body)', before: cut(x), after: cut(y) }
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const found = visit(x[i], y[i], `${path}[${i}]`)
        if (found) return found
      }
      return undefined
    }
    if (isRecord(x) && isRecord(y)) {
      for (const key of Object.keys(x).sort()) {
        if (!(key in y)) continue
        const found = visit(x[key], y[key], memberPath(path, key))
        if (found) return found
      }
    }
    return undefined
  }
  return visit(a, b, '')
}

/** Characters two texts share at their start and their end (not counting any twice). @internal */
export function sharedEnds(a: string, b: string): number {
  const most = Math.min(a.length, b.length)
  let start = 0
  while (start < most && a[start] === b[start]) start++
  let end = 0
  while (end < most - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return start + end
}
