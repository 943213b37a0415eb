// The AI SDK (`ai`): `generateText` with a tool and several steps, the model named by a plain
// string (`'openai/gpt-4o'`), which the AI SDK sends through the Vercel AI Gateway. The result and
// its `steps` go to the matchers as they are.
import { createGateway, generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

// A model string goes to the AI Gateway. Replayed calls never leave the machine, but the gateway
// provider insists on a key; `npm run examples:record` points it at the reference model.
globalThis.AI_SDK_DEFAULT_PROVIDER = createGateway({
  apiKey: process.env.AI_GATEWAY_API_KEY ?? 'replay-needs-no-key',
  ...(process.env.AI_GATEWAY_BASE_URL ? { baseURL: process.env.AI_GATEWAY_BASE_URL } : {}),
})

const tools = {
  lookup_ticket: tool({
    description: 'Look a ticket up by its id.',
    inputSchema: jsonSchema<{ id: string }>({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    }),
    execute: async ({ id }) => lookupTicket(id),
  }),
}

function desk(question: string) {
  return generateText({
    model: 'openai/gpt-4o',
    system: DESK_PROMPT,
    prompt: question,
    tools,
    stopWhen: stepCountIs(3),
  })
}

test('the result and its steps: the calls of every step, the last step judged', async () => {
  const result = await desk(QUESTION)
  expect(result.steps).toHaveLength(2)
  expect(result).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(result.steps).toHaveToolCalls([{ name: 'lookup_ticket', args: { id: 'T1' } }])
  expect(result.steps).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(result.steps).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the AI SDK desk', {
  data: [{ input: QUESTION }],
  task: (row) => desk(String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
