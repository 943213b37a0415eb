// Mastra (`@mastra/core`): an agent with a tool, on an AI SDK model. The result of
// `agent.generate()` goes to the matchers as it is: the calls of every step, the judge sees its
// text.
import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '@mastra/core/agent'
import { createTool } from '@mastra/core/tools'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

const openai = createOpenAI({
  // Unset: https://api.openai.com/v1. `npm run examples:record` points it at the reference model.
  ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
  // Replayed calls never leave the machine, so a replay needs no key; the provider insists on one.
  apiKey: process.env.OPENAI_API_KEY ?? 'replay-needs-no-key',
})

const agent = new Agent({
  id: 'desk',
  name: 'Desk',
  instructions: DESK_PROMPT,
  model: openai('gpt-4.1-mini'),
  tools: {
    lookup_ticket: createTool({
      id: 'lookup_ticket',
      description: 'Look a ticket up by its id.',
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => lookupTicket(id),
    }),
  },
})

test('the generate() result: its calls, their results and its text', async () => {
  const result = await agent.generate(QUESTION, { maxSteps: 3 })
  expect(result).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(result).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(result).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the Mastra desk', {
  data: [{ input: QUESTION }],
  task: (row) => agent.generate(String(row.input), { maxSteps: 3 }),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
