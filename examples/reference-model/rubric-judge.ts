// The reference model as a rubric judge: rubricate's fakeRubricJudge, with one rule per criterion
// text taken from the examples' criterion rules. It reads the criteria, the task and the output
// from the rubric prompt and answers in the rubric's JSON reply format.
import { fakeRubricJudge } from 'rubricate/testing'
import type { CriterionRule, Rule } from './rules'

const RUBRIC_PROMPT = 'Grade the output below against each criterion of this rubric.'

/** The rule that answers every rubric judge request from the examples' criterion rules. */
export function rubricJudge(criteria: readonly CriterionRule[]): Rule {
  const byText: Record<
    string,
    (rubricCase: { output: string; task?: string | undefined }) => {
      satisfied: boolean
      reasoning: string
    }
  > = {}
  for (const rule of criteria) {
    if (Object.hasOwn(byText, rule.criterion)) {
      throw new Error(`Two examples define a rule for the criterion "${rule.criterion}".`)
    }
    byText[rule.criterion] = ({ output, task }) => rule.decide(output, task)
  }
  const judge = fakeRubricJudge(byText)
  return {
    name: 'rubric judge',
    match: (request) => request.user.startsWith(RUBRIC_PROMPT),
    reply: (request) => judge(request.raw),
  }
}
