// The vocabulary of the reference model's rules. Each example writes its rules next to itself
// (`<case>/<case>.rules.ts`): what its agents answer, and how the judge decides its criteria.
import type { FakeReplyInput, FakeRequest } from 'rubricate/testing'

/** One chat-completions request, as the rules read it. */
export interface ModelRequest {
  model: string
  /** The system message, or `''`. */
  system: string
  /** The last user message, or `''`. */
  user: string
  /** The `response_format` JSON schema's name (`rubric_verdicts`, `analyze_result`...), if any. */
  schemaName: string | undefined
  /** The request as the server received it. */
  raw: FakeRequest
}

/** Answers the requests it matches. The first rule that matches a request answers it. */
export interface Rule {
  /** Named in the error when no rule matches. */
  name: string
  match: (request: ModelRequest) => boolean
  reply: (request: ModelRequest) => FakeReplyInput | Promise<FakeReplyInput>
}

/** The verdict on one rubric criterion. */
export interface Decision {
  satisfied: boolean
  reasoning: string
}

/** How the reference judge decides one rubric criterion, found by its exact text. */
export interface CriterionRule {
  criterion: string
  decide: (output: string, task: string | undefined) => Decision
}

/** What one example's rules file exports. */
export interface ExampleRules {
  /** Agent calls and other judge prompts (a custom scorer's steps). */
  rules?: Rule[] | undefined
  /** Rubric criteria, answered by the reference model's rubric judge. */
  criteria?: CriterionRule[] | undefined
}

/** An agent rule: a system prompt that starts with `system`, and a user message it matches. */
export function agentRule(options: {
  name: string
  system: string
  user?: RegExp | undefined
  reply: string | ((request: ModelRequest) => string)
}): Rule {
  const { name, system, user, reply } = options
  return {
    name,
    match: (request) =>
      request.schemaName === undefined &&
      request.system.startsWith(system) &&
      (user === undefined || user.test(request.user)),
    reply: (request) => (typeof reply === 'string' ? reply : reply(request)),
  }
}

/**
 * A criterion met when the output matches `pattern`: the reasoning quotes the sentence that
 * matched, or says `unmet`.
 */
export function whenOutputMatches(
  criterion: string,
  pattern: RegExp,
  unmet: string,
): CriterionRule {
  return {
    criterion,
    decide: (output) => {
      const match = pattern.exec(output)
      if (!match) return { satisfied: false, reasoning: unmet }
      return { satisfied: true, reasoning: `The output says "${sentenceAround(output, match)}".` }
    },
  }
}

/** The sentence (or line) that holds a match, trimmed to a readable length. */
function sentenceAround(text: string, match: RegExpExecArray): string {
  const before = text.slice(0, match.index)
  const start = Math.max(before.lastIndexOf('\n'), before.search(/[.!?]\s[^.!?]*$/) + 1, 0)
  const rest = text.slice(match.index)
  const end = rest.search(/[.!?](\s|$)|\n/)
  const sentence = text
    .slice(start, end === -1 ? text.length : match.index + end + 1)
    .trim()
    .replace(/^[-#*\s]+/, '')
    .replace(/[.!?]$/, '')
  return sentence.length > 120 ? `${sentence.slice(0, 117)}...` : sentence
}
