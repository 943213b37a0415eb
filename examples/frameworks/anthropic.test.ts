// The Anthropic SDK (`@anthropic-ai/sdk`): the Messages API with a tool, the tool loop written by
// hand. The conversation (the request's messages and each reply) goes to the matchers as it is:
// `tool_use` blocks are the calls, `tool_result` blocks their results.
import Anthropic from '@anthropic-ai/sdk'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

const anthropic = new Anthropic({
  // Unset: ANTHROPIC_BASE_URL, else https://api.anthropic.com. `npm run examples:record` sets it.
  // Replayed calls never leave the machine, so a replay needs no key; the client insists on one.
  apiKey: process.env.ANTHROPIC_API_KEY ?? 'replay-needs-no-key',
})

const tools: Anthropic.Messages.Tool[] = [
  {
    name: 'lookup_ticket',
    description: 'Look a ticket up by its id.',
    input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
]

/** Ask, answer each `tool_use` with a `tool_result`, and ask again until the model answers. */
async function desk(question: string): Promise<Anthropic.Messages.MessageParam[]> {
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: question }]
  for (let turn = 0; turn < 3; turn++) {
    const reply = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      system: DESK_PROMPT,
      tools,
      messages,
    })
    messages.push({ role: 'assistant', content: reply.content })
    const uses = reply.content.filter((block) => block.type === 'tool_use')
    if (uses.length === 0) break
    messages.push({
      role: 'user',
      content: uses.map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: lookupTicket((use.input as { id: string }).id),
      })),
    })
  }
  return messages
}

test('the conversation: its tool_use calls, their results and the last reply', async () => {
  const messages = await desk(QUESTION)
  expect(messages).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(messages).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(messages).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the Anthropic desk', {
  data: [{ input: QUESTION }],
  task: (row) => desk(String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
