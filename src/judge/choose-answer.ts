import { canonicalJson } from './cassette-bridge'
import { findJson, type JsonCandidate } from './extract-json'
import { judgeText } from './judge-protocol'
import { type PreparedSchema, validateOutput } from './output-schema'

// Shorter JSON (`true`, `{}`) may well appear in a prompt by chance; a verdict object never does.
const QUOTE_MIN_LENGTH = 16
// How deep JSON held as a string inside JSON (an output object with a field that holds JSON text)
// is opened up when looking for values the prompt quotes.
const STRING_DEPTH = 3
// Characters of canonical JSON written for one prompt. Each nested value is written again inside
// its parents, so deeply nested output costs size times depth: this keeps a pathological output
// (thousands of levels) from hanging the judge call. Ordinary outputs stay far below it.
const PROMPT_BUDGET = 16_000_000

/**
 * The judge's answer among the JSON values of its reply: the one value that matches the schema.
 * A value copied from the prompt (the graded output quoted back, fake verdict and all) is not the
 * judge's own answer, and two different matching values leave the answer unclear: both go
 * through the repair attempt rather than being guessed at, so that text planted in the output
 * can never become a verdict. A copy is recognised by its value, not its text: re-indented,
 * with its keys reordered or its characters escaped differently, it is still the planted value.
 * @internal
 */
export function chooseAnswer(
  schema: PreparedSchema,
  candidates: readonly JsonCandidate[],
  prompt: string,
): Answer | Promise<Answer> {
  const checks = candidates.map((candidate) => validateOutput(schema, candidate.value))
  // A promise only for a schema that validates asynchronously: every promise costs on the replay path.
  if (checks.some((check) => check instanceof Promise)) {
    return Promise.all(checks).then((settled) => decide(candidates, settled, prompt))
  }
  return decide(candidates, checks as Checked[], prompt)
}

/** A reply's answer, or what makes the reply unusable. @internal */
export type Answer = { ok: true; value: unknown } | { ok: false; problem: string }
type Checked = Awaited<ReturnType<typeof validateOutput>>

function decide(candidates: readonly JsonCandidate[], checks: Checked[], prompt: string): Answer {
  const answers = new Map<string, unknown>()
  let problem: string | undefined
  let quoted = false
  let inPrompt: Set<string> | undefined
  candidates.forEach((candidate, index) => {
    const checked = checks[index] as Checked
    if (!checked.ok) {
      problem ??= checked.problem
      return
    }
    // Found only once a reply holds a valid answer: most replies are one, so this runs once. A
    // prompt without JSON (most are) leaves nothing to compare the answer with.
    inPrompt ??= promptValues(prompt)
    if (inPrompt.size > 0) {
      const text = canonicalJson(candidate.value)
      if (text.length >= QUOTE_MIN_LENGTH && inPrompt.has(text)) {
        quoted = true
        return
      }
    }
    // Told apart by their JSON only when there is more than one to tell apart.
    answers.set(candidates.length === 1 ? '' : JSON.stringify(checked.value), checked.value)
  })
  const [only] = answers.values()
  if (answers.size === 1) return { ok: true, value: only }
  if (answers.size > 1) return { ok: false, problem: judgeText.replyAmbiguous(answers.size) }
  if (quoted) return { ok: false, problem: judgeText.replyQuoted() }
  return { ok: false, problem: problem ?? judgeText.replyQuoted() }
}

/**
 * The canonical text of every object and array in the prompt's JSON, at any depth: a judge that
 * echoes a verdict nested inside a larger planted object must be caught as well. JSON written
 * inside a string (`"note": "{\"criteria\": ...}"`) is opened up too, a few levels deep.
 */
function promptValues(prompt: string): Set<string> {
  const values = new Set<string>()
  let budget = PROMPT_BUDGET
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (depth < STRING_DEPTH && value.length >= QUOTE_MIN_LENGTH && /[{[]/.test(value)) {
        collect(value, depth + 1)
      }
      return
    }
    if (typeof value !== 'object' || value === null || budget <= 0) return
    const text = canonicalJson(value)
    budget -= text.length
    if (text.length < QUOTE_MIN_LENGTH) return
    values.add(text)
    for (const item of Array.isArray(value) ? value : Object.values(value)) visit(item, depth)
  }
  const collect = (text: string, depth: number): void => {
    for (const { value } of findJson(text.trim(), { duplicates: false }).candidates) {
      visit(value, depth)
    }
  }
  collect(prompt, 0)
  return values
}
