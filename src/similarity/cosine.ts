/**
 * The cosine of the angle between two vectors: their dot product over the product of their
 * lengths, from -1 (opposite) through 0 (unrelated) to 1 (same direction). Sums are accumulated
 * in one pass, in double precision, whatever the vectors' element type (`Float32Array` included).
 * Vectors of different lengths, empty vectors or a zero vector have no angle: `undefined`, so a
 * caller never mistakes "nothing to compare" for "unrelated".
 * @internal
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number | undefined {
  if (a.length !== b.length || a.length === 0) return undefined
  let dot = 0
  let normA = 0
  let normB = 0
  for (let index = 0; index < a.length; index++) {
    const x = a[index] as number
    const y = b[index] as number
    dot += x * y
    normA += x * x
    normB += y * y
  }
  if (normA === 0 || normB === 0 || !Number.isFinite(dot)) return undefined
  // Rounding may carry two equal vectors a hair past 1: clamped, so a score stays in range.
  return Math.min(1, Math.max(-1, dot / Math.sqrt(normA * normB)))
}
