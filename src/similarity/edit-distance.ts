/**
 * The Levenshtein distance between two strings: the fewest single-character insertions,
 * deletions and substitutions that turn one into the other, counted by code point (an emoji is
 * one character). Two rows of the classic table, so memory is linear in the shorter string.
 * @internal
 */
export function editDistance(a: string, b: string): number {
  let left = Array.from(a)
  let right = Array.from(b)
  if (left.length < right.length) [left, right] = [right, left]
  if (right.length === 0) return left.length
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index)
  let current = new Array<number>(right.length + 1)
  for (let i = 1; i <= left.length; i++) {
    current[0] = i
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
    }
    ;[previous, current] = [current, previous]
  }
  return previous[right.length] as number
}

/**
 * 1 minus the edit distance over the longer string's length: 1 for equal strings, 0 for strings
 * with nothing in common (two empty strings are equal: 1).
 * @internal
 */
export function editSimilarity(a: string, b: string): number {
  const longest = Math.max(Array.from(a).length, Array.from(b).length)
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest
}
