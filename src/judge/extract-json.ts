import { type DuplicateKey, duplicateKey } from './duplicate-keys'
import { judgeText } from './judge-protocol'

/** A JSON value found in a judge reply, with the text it was parsed from. @internal */
export interface JsonCandidate {
  value: unknown
  source: string
}

/** The JSON values found in a judge reply, or why none was found. @internal */
export type ExtractedJson =
  | { ok: true; candidates: JsonCandidate[] }
  | { ok: false; problem: string }

// Characters the bracket scan may visit in one reply: a huge reply full of unclosed brackets
// would otherwise take quadratic time, and a judge call must never hang a test.
const SCAN_BUDGET = 4_000_000

/**
 * Find the JSON values in a judge's reply, leniently: the whole text when it parses (then it is
 * the only candidate), else the body of every code fence and every balanced `{...}` or `[...]`
 * in the prose around them. Models in prompt mode often wrap their JSON in a fence or a
 * sentence; that is not worth a repair round trip. Which candidate is the answer is decided by
 * the caller, against the schema. JSON that holds a key twice makes the whole reply unusable,
 * wherever it is: which of the two values the judge meant cannot be known.
 * @internal
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: judgeText.replyEmpty() }
  const found = findJson(trimmed, { duplicates: true })
  if (found.duplicate) {
    const { key, path } = found.duplicate
    return { ok: false, problem: judgeText.replyDuplicateKey(key, path) }
  }
  if (found.candidates.length > 0) return { ok: true, candidates: found.candidates }
  return { ok: false, problem: judgeText.replyNotJson(parseProblem(trimmed)) }
}

/** What {@link findJson} found: the values, and the first key held twice. @internal */
export interface FoundJson {
  candidates: JsonCandidate[]
  duplicate: DuplicateKey | undefined
}

/**
 * Every JSON value in `text`, found as {@link extractJson} finds them. With `duplicates`, each
 * value's text is also checked for a key held twice (the first one found is returned).
 * @internal
 */
export function findJson(text: string, options: { duplicates: boolean }): FoundJson {
  let duplicate: DuplicateKey | undefined
  const parse = (source: string) => {
    const parsed = tryParse(source)
    if (parsed.ok && options.duplicates && !duplicate) duplicate = duplicateKey(source)
    return parsed
  }
  const whole = parse(text)
  if (whole.ok) return { candidates: [{ value: whole.value, source: text }], duplicate }
  const candidates: JsonCandidate[] = []
  for (const body of fenceBodies(text)) {
    const source = body.trim()
    const fenced = parse(source)
    if (fenced.ok) candidates.push({ value: fenced.value, source })
  }
  let budget = SCAN_BUDGET
  // From bracket to bracket by the regular expression engine, not character by character in
  // JavaScript: every prompt is scanned too, and most of it is prose.
  const brackets = /[{[]/g
  for (let found = brackets.exec(text); found && budget > 0; found = brackets.exec(text)) {
    const start = found.index
    if (!opensJson(text, start)) continue
    const end = balancedEnd(text, start)
    budget -= (end === -1 ? text.length : end) - start + 1
    if (end === -1) continue
    const source = text.slice(start, end + 1)
    const candidate = parse(source)
    if (!candidate.ok) continue
    candidates.push({ value: candidate.value, source })
    brackets.lastIndex = end + 1
  }
  return { candidates, duplicate }
}

// What may follow an opening bracket in JSON, after whitespace. Prose brackets (`[required]`,
// `{name}`) fail this at once and are never handed to JSON.parse, whose failure throws: this
// scan runs over every prompt too (see choose-answer.ts).
function opensJson(text: string, start: number): boolean {
  let i = start + 1
  while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++
  const next = text[i]
  if (next === undefined) return false
  if (text[start] === '{') return next === '"' || next === '}'
  if (next === 't' || next === 'f' || next === 'n') {
    return text.startsWith('true', i) || text.startsWith('false', i) || text.startsWith('null', i)
  }
  return '-"{[]0123456789'.includes(next)
}

// The characters JSON text can start and end with, after whitespace. Text that fails either
// cannot parse, and is not handed to JSON.parse to throw a SyntaxError: every prompt is scanned
// too, prose and fences included.
const JSON_START = /^[\s]*[-{["0-9tfn]/
const JSON_END = /[}\]"0-9el][\s]*$/

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!JSON_START.test(text) || !JSON_END.test(text)) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** What JSON.parse says is wrong with `text`, for the repair turn. */
function parseProblem(text: string): string {
  try {
    JSON.parse(text)
    return 'no JSON value was found in it.'
  } catch (error) {
    return (error as Error).message
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

/**
 * The bodies of the code fences in a text: a run of three or more backticks or tildes, the rest
 * of its line, then everything up to the next run of the same characters at least as long. A
 * linear scan where the regular expression it replaces, `/(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1/g`,
 * tried every shorter fence on every run: cubic on a reply of backticks.
 * A search for a closing run that failed is remembered per character: no later fence of that
 * character and that length or longer can close either, so it is not searched again.
 */
/** @internal */
export function fenceBodies(text: string): string[] {
  const bodies: string[] = []
  const failed: Record<string, number> = {
    '`': Number.POSITIVE_INFINITY,
    '~': Number.POSITIVE_INFINITY,
  }
  let at = 0
  while (at < text.length) {
    const char = text[at] as string
    if (char !== '`' && char !== '~') {
      at++
      continue
    }
    let end = at
    while (text[end] === char) end++
    const length = end - at
    if (length < 3 || length >= (failed[char] as number)) {
      at = end
      continue
    }
    const lineEnd = text.indexOf('\n', end)
    if (lineEnd === -1) break
    const close = text.indexOf(char.repeat(length), lineEnd + 1)
    if (close === -1) {
      failed[char] = length
      at = end
      continue
    }
    const body = text.slice(lineEnd + 1, close)
    bodies.push(body.endsWith('\n') ? body.slice(0, -1) : body)
    at = close + length
  }
  return bodies
}
