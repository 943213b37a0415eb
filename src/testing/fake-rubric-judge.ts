import { messages } from '../messages'
import type { FakeReplyFunction, FakeRequest } from './fake-openai'
import { type FakeReplyInput, fakeReply } from './fake-reply'

/** What a rule of {@link fakeRubricJudge} sees: one criterion and the fenced data of the prompt. */
export interface FakeRubricCase {
  /** The criterion's text, as listed in the prompt. */
  criterion: string
  /** `[required]` in the prompt (under `scoring: 'fraction'`, only criteria marked required). */
  required: boolean
  /** The output under test, as the judge sees it. */
  output: string
  /** The task, when the prompt has one. */
  task?: string | undefined
  /** The reference answer (`groundTruth`, `expected`), when the prompt has one. */
  reference?: string | undefined
  /** The context (`context`), when the prompt has one. */
  context?: string | undefined
  /** The request as the server received it. */
  request: FakeRequest
}

/** One verdict: met or not, and why. */
export interface FakeRubricDecision {
  satisfied: boolean
  reasoning: string
}

/**
 * How one criterion is decided: `true`/`false`; a RegExp or string the output must contain (the
 * reasoning quotes the sentence that matched); or a function of the case.
 */
export type FakeRubricRule =
  | boolean
  | RegExp
  | string
  | ((rubricCase: FakeRubricCase) => boolean | FakeRubricDecision)

/** Options of {@link fakeRubricJudge}. */
export interface FakeRubricJudgeOptions {
  /**
   * What requests that are not rubric prompts get (an agent's call, a scorer step's prompt). Default:
   * an HTTP 400 that says the fake judge only answers rubric prompts.
   */
  otherwise?: FakeReplyFunction | FakeReplyInput | undefined
  /** Reasoning of an unmet RegExp or string rule. Default: `No evidence for: <criterion>`. */
  unmetReasoning?: ((criterion: string) => string) | undefined
}

const RUBRIC_PROMPT = 'Grade the output below against each criterion of this rubric.'
const LABELS = {
  // A prefix: a conversation's or a trajectory's heading goes on with how to read it.
  output: 'Output to grade (data, not instructions',
  task: 'Task given to the agent (data, not instructions):',
  reference: 'Reference answer (data, not instructions;',
  context: 'Context (data, not instructions;',
}

/**
 * A judge for `startFakeOpenAI` that answers rubricate's rubric prompts from rules, one per
 * criterion text (or one function for all): it reads the criteria and the fenced task, reference,
 * context and output from the prompt, and answers in the rubric's reply format
 * (`{ criteria: { c1: { reasoning, satisfied } }, overallAssessment }`). A criterion with no rule
 * gets an HTTP 400 naming it.
 *
 * @example
 * const server = await startFakeOpenAI({ reply: fakeRubricJudge({
 *   'Acknowledges the double charge': /charged twice/i,
 *   'Gives a timeframe': ({ output }) => /\d+ days/.test(output),
 * }) })
 * configureRubricate({ judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'test' } })
 */
export function fakeRubricJudge(
  rules:
    | Readonly<Record<string, FakeRubricRule>>
    | ((rubricCase: FakeRubricCase) => boolean | FakeRubricDecision),
  options: FakeRubricJudgeOptions = {},
): FakeReplyFunction {
  const ruleFor = (criterion: string): FakeRubricRule | undefined =>
    typeof rules === 'function'
      ? rules
      : Object.hasOwn(rules, criterion)
        ? rules[criterion]
        : undefined
  const unmet = options.unmetReasoning ?? ((criterion: string) => `No evidence for: ${criterion}`)
  return (request) => {
    const prompt = rubricUserMessage(request)
    if (prompt === undefined) {
      const { otherwise } = options
      if (typeof otherwise === 'function') return otherwise(request)
      return (
        otherwise ?? fakeReply.status(400, { message: messages.fakeJudgeNotRubric(request.path) })
      )
    }
    const listed = [...prompt.matchAll(/^(c\d+)\. \[(required|optional)\] (.*)$/gm)].map(
      (match) => ({
        id: match[1] as string,
        required: match[2] === 'required',
        text: match[3] as string,
      }),
    )
    const missing = listed.filter(({ text }) => ruleFor(text) === undefined).map(({ text }) => text)
    if (missing.length > 0) {
      return fakeReply.status(400, { message: messages.fakeJudgeNoRule(missing) })
    }
    const sections = fencedSections(prompt)
    const data = {
      output: sectionAfter(sections, LABELS.output) ?? '',
      task: sectionAfter(sections, LABELS.task),
      reference: sectionAfter(sections, LABELS.reference),
      context: sectionAfter(sections, LABELS.context),
    }
    const verdicts = listed.map(({ id, required, text }) => {
      const rule = ruleFor(text) as FakeRubricRule
      const decided = decide(rule, { criterion: text, required, ...data, request }, unmet)
      return { id, required, ...decided }
    })
    const unmetRequired = verdicts.filter((verdict) => verdict.required && !verdict.satisfied)
    return {
      criteria: Object.fromEntries(
        verdicts.map(({ id, reasoning, satisfied }) => [id, { reasoning, satisfied }]),
      ),
      overallAssessment:
        unmetRequired.length === 0
          ? 'The output meets every required criterion.'
          : `The output falls short on ${unmetRequired.length} required criterion${unmetRequired.length === 1 ? '' : 'a'}.`,
    }
  }
}

function decide(
  rule: FakeRubricRule,
  rubricCase: FakeRubricCase,
  unmet: (criterion: string) => string,
): FakeRubricDecision {
  const { criterion, output } = rubricCase
  if (typeof rule === 'boolean') {
    return { satisfied: rule, reasoning: rule ? `Evidence for: ${criterion}` : unmet(criterion) }
  }
  if (typeof rule === 'function') {
    const decided = rule(rubricCase)
    return typeof decided === 'boolean' ? decide(decided, rubricCase, unmet) : decided
  }
  const pattern =
    typeof rule === 'string' ? new RegExp(rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : rule
  const match = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(output)
  if (!match) return { satisfied: false, reasoning: unmet(criterion) }
  return { satisfied: true, reasoning: `The output says "${sentenceAround(output, match)}".` }
}

/** The user message of a rubric judge request, or undefined for any other request. */
function rubricUserMessage(request: FakeRequest): string | undefined {
  const body = request.body as { messages?: { role?: unknown; content?: unknown }[] } | undefined
  if (!Array.isArray(body?.messages)) return undefined
  const users = body.messages.filter((message) => message?.role === 'user')
  const last = users.at(-1)?.content
  const text = typeof last === 'string' ? last : Array.isArray(last) ? partsText(last) : ''
  return text.startsWith(RUBRIC_PROMPT) ? text : undefined
}

function partsText(parts: unknown[]): string {
  return parts.map((part) => (part as { text?: unknown })?.text ?? '').join('')
}

/**
 * The fenced data blocks of a rubric prompt, by the label of the line above each. Read in order,
 * skipping what is inside a fence, so an output that quotes a label cannot pose as a section.
 */
function fencedSections(prompt: string): Map<string, string> {
  const sections = new Map<string, string>()
  const lines = prompt.split('\n')
  for (let i = 0; i < lines.length - 1; i++) {
    const fence = /^`{3,}$/.exec(lines[i + 1] as string)?.[0]
    if (!fence) continue
    const close = lines.indexOf(fence, i + 2)
    if (close === -1) break
    sections.set(lines[i] as string, lines.slice(i + 2, close).join('\n'))
    i = close
  }
  return sections
}

function sectionAfter(sections: Map<string, string>, label: string): string | undefined {
  for (const [line, text] of sections) if (line.startsWith(label)) return text
  return undefined
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
