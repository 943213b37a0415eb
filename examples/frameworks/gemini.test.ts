// Gemini (`@google/genai`): `generateContent` with a function declaration, the function loop
// written by hand. The conversation's `contents` go to the matchers as they are: `functionCall`
// parts are the calls, `functionResponse` parts their results.
import { type Content, GoogleGenAI } from '@google/genai'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

const ai = new GoogleGenAI({
  // Replayed calls never leave the machine, so a replay needs no key; the client insists on one.
  apiKey: process.env.GEMINI_API_KEY ?? 'replay-needs-no-key',
  // Unset: Google's API. `npm run examples:record` points it at the reference model.
  ...(process.env.GEMINI_BASE_URL ? { httpOptions: { baseUrl: process.env.GEMINI_BASE_URL } } : {}),
})

const lookupDeclaration = {
  name: 'lookup_ticket',
  description: 'Look a ticket up by its id.',
  parametersJsonSchema: {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
  },
}

/** Ask, answer each `functionCall` with a `functionResponse`, and ask again until it answers. */
async function desk(question: string): Promise<Content[]> {
  const contents: Content[] = [{ role: 'user', parts: [{ text: question }] }]
  for (let turn = 0; turn < 3; turn++) {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents,
      config: {
        systemInstruction: DESK_PROMPT,
        tools: [{ functionDeclarations: [lookupDeclaration] }],
      },
    })
    const said = response.candidates?.[0]?.content
    if (said) contents.push(said)
    const calls = response.functionCalls ?? []
    if (calls.length === 0) break
    contents.push({
      role: 'user',
      parts: calls.map((call) => ({
        functionResponse: {
          ...(call.id ? { id: call.id } : {}),
          name: call.name ?? '',
          response: { result: lookupTicket(String(call.args?.id)) },
        },
      })),
    })
  }
  return contents
}

test('the contents: functionCall parts, their responses and the last reply', async () => {
  const contents = await desk(QUESTION)
  expect(contents).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(contents).toHaveToolResult('lookup_ticket', { result: TICKET_T1 })
  await expect(contents).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the Gemini desk', {
  data: [{ input: QUESTION }],
  task: (row) => desk(String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
