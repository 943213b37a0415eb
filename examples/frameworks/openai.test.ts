// The OpenAI SDK (`openai`): Chat Completions with a tool, the tool loop written by hand. The
// conversation's messages go to the matchers as they are: the assistant messages' `tool_calls`
// are the calls, the `tool` messages their results, the last assistant message the answer.
import type OpenAI from 'openai'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { openai } from '../openai-client'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup_ticket',
      description: 'Look a ticket up by its id.',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  },
]

/** Ask, answer each tool call with a `tool` message, and ask again until the model answers. */
async function desk(question: string): Promise<Message[]> {
  const messages: Message[] = [
    { role: 'system', content: DESK_PROMPT },
    { role: 'user', content: question },
  ]
  for (let turn = 0; turn < 3; turn++) {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages,
      tools,
    })
    const reply = completion.choices[0]?.message
    if (!reply) break
    messages.push(reply)
    if (!reply.tool_calls?.length) break
    for (const call of reply.tool_calls) {
      if (call.type !== 'function') continue
      const { id } = JSON.parse(call.function.arguments) as { id: string }
      messages.push({ role: 'tool', tool_call_id: call.id, content: lookupTicket(id) })
    }
  }
  return messages
}

test('the messages: tool calls, their results and the last reply', async () => {
  const messages = await desk(QUESTION)
  expect(messages).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(messages).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(messages).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the OpenAI SDK desk', {
  data: [{ input: QUESTION }],
  task: (row) => desk(String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
