// The OpenAI SDK (`openai`): Chat Completions with a tool, run by the SDK's own tool runner
// (`runTools`). The runner, once done, goes to the matchers as it is: its messages hold every
// call, every result and the last reply.
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { openai } from '../openai-client'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

async function desk(question: string) {
  const runner = openai.chat.completions.runTools({
    model: 'gpt-4.1-mini',
    messages: [
      { role: 'system', content: DESK_PROMPT },
      { role: 'user', content: question },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'lookup_ticket',
          description: 'Look a ticket up by its id.',
          parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          function: ({ id }: { id: string }) => lookupTicket(id),
          parse: JSON.parse,
        },
      },
    ],
  })
  await runner.done()
  return runner
}

test('a finished tool runner: its calls, their results and the last reply', async () => {
  const runner = await desk(QUESTION)
  expect(runner).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(runner.messages).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(runner).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the OpenAI SDK desk', {
  data: [{ input: QUESTION }],
  task: async (row) => (await desk(String(row.input))).messages,
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
