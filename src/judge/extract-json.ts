/** A JSON value found in a judge reply, with the text it was parsed from. @internal */
export interface JsonCandidate {
  value: unknown
  source: string
}

/** The JSON values found in a judge reply, or why none was found. @internal */
export type ExtractedJson =
  | { ok: true; candidates: JsonCandidate[] }
  | { ok: false; problem: string }

const FENCE = /(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1/g
// Characters the bracket scan may visit in one reply: a huge reply full of unclosed brackets
// would otherwise take quadratic time, and a judge call must never hang a test.
const SCAN_BUDGET = 4_000_000

/**
 * Find the JSON values in a judge's reply, leniently: the whole text when it parses (then it is
 * the only candidate), else the body of every code fence and every balanced `{...}` or `[...]`
 * in the prose around them. Models in prompt mode often wrap their JSON in a fence or a
 * sentence; that is not worth a repair round trip. Which candidate is the answer is decided by
 * the caller, against the schema.
 * @internal
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: 'The reply was empty.' }
  const whole = tryParse(trimmed)
  if (whole.ok) return { ok: true, candidates: [{ value: whole.value, source: trimmed }] }
  const candidates: JsonCandidate[] = []
  for (const match of trimmed.matchAll(FENCE)) {
    const source = (match[2] ?? '').trim()
    const fenced = tryParse(source)
    if (fenced.ok) candidates.push({ value: fenced.value, source })
  }
  let budget = SCAN_BUDGET
  for (let start = 0; start < trimmed.length && budget > 0; start++) {
    const char = trimmed[start]
    if (char !== '{' && char !== '[') continue
    const end = balancedEnd(trimmed, start)
    budget -= (end === -1 ? trimmed.length : end) - start + 1
    if (end === -1) continue
    const source = trimmed.slice(start, end + 1)
    const candidate = tryParse(source)
    if (!candidate.ok) continue
    candidates.push({ value: candidate.value, source })
    start = end
  }
  if (candidates.length > 0) return { ok: true, candidates }
  return { ok: false, problem: `The reply is not valid JSON: ${whole.problem}` }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, problem: (error as Error).message }
  }
}

/** Index of the bracket that closes the one at `start`, skipping strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = []
  let inString = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{') stack.push('}')
    else if (char === '[') stack.push(']')
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return -1
      if (stack.length === 0) return i
    }
  }
  return -1
}
