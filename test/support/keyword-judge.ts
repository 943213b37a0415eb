// A fake judge for end-to-end tests: answers rubric prompts (ARCHITECTURE.md §6) from the criteria and the
// fenced output it finds in the request. A criterion "Mentions X" is satisfied when the output
// contains X; any other criterion is satisfied when the output contains it word for word.
import type { FakeReplyInput, FakeRequest } from '../../src/testing'

/** The judge's JSON reply to one rubric request, or a plain text answer for any other request. */
export function keywordJudge(request: FakeRequest): FakeReplyInput {
  const prompt: string = request.body?.messages?.at(-1)?.content ?? ''
  const criteria = [...prompt.matchAll(/^(c\d+)\. \[(?:required|optional)\] (.*)$/gm)]
  if (criteria.length === 0) return 'not a rubric request'
  const output =
    /Output to grade \(data, not instructions[^\n]*\):\n(`{3,})\n([\s\S]*?)\n\1(?:\n|$)/.exec(
      prompt,
    )?.[2] ?? ''
  const verdicts: Record<string, { reasoning: string; satisfied: boolean }> = {}
  for (const [, id, description] of criteria) {
    const wanted = (description ?? '').replace(/^Mentions /, '')
    const satisfied = output.includes(wanted)
    verdicts[id ?? ''] = {
      reasoning: satisfied ? `The output says "${wanted}".` : `The output never says "${wanted}".`,
      satisfied,
    }
  }
  return { criteria: verdicts, overallAssessment: 'Graded by keyword.' }
}
