/** The JSON found in a judge reply, or why none was found. @internal */
export type ExtractedJson = { ok: true; value: unknown } | { ok: false; problem: string }

/**
 * Find the JSON value in a judge's reply, leniently: the whole text, else the body of a code
 * fence, else the first balanced `{...}` or `[...]` with prose around it. Models in prompt mode
 * often wrap their JSON in a fence or a sentence; that is not worth a repair round trip.
 * @internal
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: 'The reply was empty.' }
  const whole = tryParse(trimmed)
  if (whole.ok) return whole
  for (const match of trimmed.matchAll(/(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1/g)) {
    const fenced = tryParse((match[2] ?? '').trim())
    if (fenced.ok) return fenced
  }
  for (let start = 0; start < trimmed.length; start++) {
    const char = trimmed[start]
    if (char !== '{' && char !== '[') continue
    const end = balancedEnd(trimmed, start)
    if (end === -1) continue
    const candidate = tryParse(trimmed.slice(start, end + 1))
    if (candidate.ok) return candidate
  }
  return { ok: false, problem: `The reply is not valid JSON: ${whole.problem}` }
}

function tryParse(text: string): ExtractedJson {
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
