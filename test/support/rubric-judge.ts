import type { FakeReplyFunction, FakeRequest } from '../../src/testing'

/** The rubric lines (`c1. [required] ...`) of the user message a judge request carries. */
export function listedCriteria(request: FakeRequest): { id: string; tag: string; text: string }[] {
  const prompt: string = request.body.messages.find((m: any) => m.role === 'user').content
  return [...prompt.matchAll(/^(c\d+)\. \[(required|optional)\] (.*)$/gm)].map((match) => ({
    id: match[1] as string,
    tag: match[2] as string,
    text: match[3] as string,
  }))
}

/** The user message of a judge request. */
export function userMessage(request: FakeRequest | undefined): string {
  return request?.body.messages.find((m: any) => m.role === 'user').content
}

/**
 * A judge that decides each criterion it is shown from its text: `decide(text)` gives whether it
 * is satisfied (and the reasoning, default "Evidence for: <text>").
 */
export function judgeBy(
  decide: (
    text: string,
    request: FakeRequest,
  ) => boolean | { satisfied: boolean; reasoning: string },
  overallAssessment = 'The output was graded.',
): FakeReplyFunction {
  return (request) => ({
    criteria: Object.fromEntries(
      listedCriteria(request).map(({ id, text }) => {
        const decision = decide(text, request)
        const verdict =
          typeof decision === 'boolean'
            ? {
                reasoning: `${decision ? 'Evidence for' : 'No evidence for'}: ${text}`,
                satisfied: decision,
              }
            : { reasoning: decision.reasoning, satisfied: decision.satisfied }
        return [id, verdict]
      }),
    ),
    overallAssessment,
  })
}
