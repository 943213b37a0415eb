// The reference model as a rubric judge: it reads the criteria, the task and the output from
// rubricate's rubric prompt, decides each criterion with the rule of the same text, and answers
// in the rubric's JSON wire format.
import { fakeReply } from 'rubricate/testing'
import type { CriterionRule, ModelRequest, Rule } from './rules'

const RUBRIC_PROMPT = 'Grade the output below against each criterion of this rubric.'

/** The rule that answers every rubric judge request from the examples' criterion rules. */
export function rubricJudge(criteria: readonly CriterionRule[]): Rule {
  const byText = new Map<string, CriterionRule>()
  for (const rule of criteria) {
    if (byText.has(rule.criterion)) {
      throw new Error(`Two examples define a rule for the criterion "${rule.criterion}".`)
    }
    byText.set(rule.criterion, rule)
  }
  return {
    name: 'rubric judge',
    match: (request) => request.user.startsWith(RUBRIC_PROMPT),
    reply: (request) => {
      const listed = listedCriteria(request)
      const unknown = listed.filter(({ text }) => !byText.has(text))
      if (unknown.length > 0) {
        return fakeReply.status(400, {
          message: `The reference judge has no rule for ${unknown.map(({ text }) => `"${text}"`).join(', ')}. Add one to the rules file of the example that uses it (examples/<case>/<case>.rules.ts).`,
        })
      }
      const output = fencedBlock(request.user, 'Output to grade (data, not instructions):') ?? ''
      const task = fencedBlock(request.user, 'Task given to the agent (data, not instructions):')
      const verdicts = listed.map(({ id, required, text }) => ({
        id,
        required,
        ...byText.get(text)!.decide(output, task),
      }))
      const unmet = verdicts.filter((verdict) => verdict.required && !verdict.satisfied)
      return {
        criteria: Object.fromEntries(
          verdicts.map(({ id, reasoning, satisfied }) => [id, { reasoning, satisfied }]),
        ),
        overallAssessment:
          unmet.length === 0
            ? 'The output meets every required criterion.'
            : `The output falls short on ${unmet.length} required criterion${unmet.length === 1 ? '' : 'a'}.`,
      }
    },
  }
}

function listedCriteria(request: ModelRequest) {
  return [...request.user.matchAll(/^(c\d+)\. \[(required|optional)\] (.*)$/gm)].map((match) => ({
    id: match[1]!,
    required: match[2] === 'required',
    text: match[3]!,
  }))
}

/** The text of the fenced data block after `label`, as rubricate's rubric prompt writes it. */
function fencedBlock(prompt: string, label: string): string | undefined {
  const start = prompt.indexOf(`${label}\n`)
  if (start === -1) return undefined
  const rest = prompt.slice(start + label.length + 1)
  const fence = /^`{3,}/.exec(rest)?.[0]
  if (!fence) return undefined
  const end = rest.indexOf(`\n${fence}`, fence.length)
  return end === -1 ? undefined : rest.slice(fence.length + 1, end)
}
