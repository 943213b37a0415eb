import { UsageError } from '../errors'
import { messages } from '../messages'

/**
 * Reject the first key of `options` that is not in `known`, with a `RUBRICATE_USAGE` error that
 * names the nearest known key and lists them all: a misspelt option silently ignored leaves the
 * default in place (a rubric never read, a judge never configured) while the test still passes.
 * Every public options object is checked through this one function. `where` names the object
 * (`createScorer() judge`).
 * @internal
 */
export function rejectUnknownKeys(where: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new UsageError(messages.unknownOption(where, key, known, nearestKey(key, known)))
    }
  }
}

/**
 * The known key closest to `key`, if one is close enough to be a typo of it: within a third of
 * its length in edits (at least one), where case, `_` and `-` do not count and swapping two
 * neighbouring letters is one edit (`base_url` is `baseURL`, `mdoe` is `mode`).
 * @internal
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const plain = (text: string) => text.toLowerCase().replace(/[-_]/g, '')
  const wanted = plain(key)
  let best: { key: string; distance: number } | undefined
  for (const candidate of known) {
    const text = plain(candidate)
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, text.length) / 3))
    const distance = editDistance(wanted, text)
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { key: candidate, distance }
    }
  }
  return best?.key
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  // Option names are short; the full table is a few hundred cells at most.
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[]
      const above = rows[i - 1] as number[]
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      )
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      }
      row[j] = best
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}
