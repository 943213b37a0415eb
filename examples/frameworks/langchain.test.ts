// LangChain.js (`@langchain/core`, `@langchain/openai`): a chat model with a tool bound, the tool
// run by hand, as a LangChain app without a graph does it. The messages, a model's streamed chunks
// and `withStructuredOutput`'s `{ raw, parsed }` go to the matchers as LangChain returns them.
import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { ChatOpenAI } from '@langchain/openai'
import { toolCalls } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { CRITERIA, DESK_PROMPT, lookupTicket, QUESTION, TICKET_T1 } from './desk'

const llm = new ChatOpenAI({
  model: 'gpt-4.1-mini',
  // Unset: https://api.openai.com/v1. `npm run examples:record` points it at the reference model.
  configuration: { baseURL: process.env.OPENAI_BASE_URL },
  // Replayed calls never leave the machine, so a replay needs no key; the client insists on one.
  apiKey: process.env.OPENAI_API_KEY ?? 'replay-needs-no-key',
})

const lookup = tool(async ({ id }) => lookupTicket(id), {
  name: 'lookup_ticket',
  description: 'Look a ticket up by its id.',
  schema: z.object({ id: z.string() }),
})

/** Ask, run the tool calls the model makes, and ask again until it answers: the messages. */
async function desk(question: string): Promise<BaseMessage[]> {
  const model = llm.bindTools([lookup])
  const messages: BaseMessage[] = [new SystemMessage(DESK_PROMPT), new HumanMessage(question)]
  for (let turn = 0; turn < 3; turn++) {
    const reply = await model.invoke(messages)
    messages.push(reply)
    if (!reply.tool_calls?.length) break
    for (const call of reply.tool_calls) messages.push(await lookup.invoke(call))
  }
  return messages
}

test('the messages of a tool loop: calls, results and the answer', async () => {
  const messages = await desk(QUESTION)
  expect(messages).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(messages).toHaveToolResult('lookup_ticket', TICKET_T1)
  await expect(messages).toSatisfyRubric(CRITERIA, { input: messages })
})

test('the chunks of a streamed reply, and a structured answer with its raw message', async () => {
  const messages = await desk(QUESTION)
  // The chunks of one message are joined with LangChain's own `concat` before they are read.
  const chunks: unknown[] = []
  for await (const chunk of await llm.stream(messages)) chunks.push(chunk)
  await expect(chunks).toSatisfyRubric(CRITERIA, { input: QUESTION })

  const Ticket = z.object({ id: z.string(), status: z.string(), assignee: z.string() })
  const pair = await llm.withStructuredOutput(Ticket, { includeRaw: true }).invoke(messages)
  expect(pair).toHaveStructuredResponse({ id: 'T1', status: 'open', assignee: 'Dana' })
})

describeEval('the LangChain desk', {
  data: [{ input: QUESTION }],
  task: (row) => desk(String(row.input)),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
