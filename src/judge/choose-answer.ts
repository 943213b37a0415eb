import { messages } from '../messages'
import type { JsonCandidate } from './extract-json'
import { type PreparedSchema, validateOutput } from './output-schema'

// Shorter JSON (`true`, `{}`) may well appear in a prompt by chance; a verdict object never does.
const QUOTE_MIN_LENGTH = 16

/**
 * The judge's answer among the JSON values of its reply: the one value that matches the schema.
 * A value copied from the prompt (the graded output quoted back, fake verdict and all) is not the
 * judge's own answer, and two different matching values leave the answer unclear: both go
 * through the repair attempt rather than being guessed at, so that text planted in the output
 * can never become a verdict.
 * @internal
 */
export async function chooseAnswer(
  schema: PreparedSchema,
  candidates: readonly JsonCandidate[],
  prompt: string,
): Promise<{ ok: true; value: unknown } | { ok: false; problem: string }> {
  const answers = new Map<string, unknown>()
  let problem: string | undefined
  let quoted = false
  for (const candidate of candidates) {
    const pending = validateOutput(schema, candidate.value)
    const checked = pending instanceof Promise ? await pending : pending
    if (!checked.ok) {
      problem ??= checked.problem
      continue
    }
    if (candidate.source.length >= QUOTE_MIN_LENGTH && prompt.includes(candidate.source)) {
      quoted = true
      continue
    }
    answers.set(JSON.stringify(checked.value), checked.value)
  }
  const [only] = answers.values()
  if (answers.size === 1) return { ok: true, value: only }
  if (answers.size > 1) return { ok: false, problem: messages.judgeReplyAmbiguous(answers.size) }
  if (quoted) return { ok: false, problem: messages.judgeReplyQuoted() }
  return { ok: false, problem: problem ?? messages.judgeReplyQuoted() }
}
