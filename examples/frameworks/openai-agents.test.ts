// The OpenAI Agents SDK (`@openai/agents`): an agent with a tool, run with `run()`. The `RunResult`
// goes to the matchers as it is: its tool calls come from `newItems`, the judge sees `finalOutput`.
import { Agent, run, setDefaultOpenAIKey, tool } from '@openai/agents'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

// The SDK's client reads OPENAI_BASE_URL (`npm run examples:record` points it at the reference
// model). Replayed calls never leave the machine, so a replay needs no key; the client insists.
setDefaultOpenAIKey(process.env.OPENAI_API_KEY ?? 'replay-needs-no-key')

const agent = new Agent({
  name: 'Desk',
  instructions: DESK_PROMPT,
  model: 'gpt-4.1-mini',
  tools: [
    tool({
      name: 'lookup_ticket',
      description: 'Look a ticket up by its id.',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => lookupTicket(id),
    }),
  ],
})

test('the run result: its tool calls, their results and its final output', async () => {
  const result = await run(agent, QUESTION)
  expect(result).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(result).toHaveToolCalls([{ name: 'lookup_ticket', agent: 'Desk' }])
  expect(result).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(result).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the Agents SDK desk', {
  data: [{ input: QUESTION }],
  task: (row) => run(agent, String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
