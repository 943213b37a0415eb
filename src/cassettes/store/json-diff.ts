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
    for (const key of keys) walk(a[key], b[key], join(path, key), out, limit)
    return
  }
  out.push(path || '(the whole body)')
}

function join(path: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
  if (segment === key) return path ? `${path}.${key}` : key
  return `${path}[${segment}]`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
