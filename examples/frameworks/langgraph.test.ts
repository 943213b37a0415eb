// LangGraph (`@langchain/langgraph`): a prebuilt ReAct agent on `ChatOpenAI`, tested the way
// LangGraph's own docs test agents: its streams in every mode, `streamEvents` v2, `getState()`, an
// `interrupt()` resumed with a `Command`, and a structured response. Each value goes to the
// matchers as LangGraph returns it: no adapter.
import { tool } from '@langchain/core/tools'
import { Command, interrupt, MemorySaver } from '@langchain/langgraph'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
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

const agent = createReactAgent({ llm, tools: [lookup], prompt: DESK_PROMPT })
const input = { messages: [{ role: 'user', content: QUESTION }] }

test('the collected chunks of every streamMode read as the run they stream', async () => {
  for (const streamMode of ['updates', 'values', 'messages'] as const) {
    const chunks: unknown[] = []
    for await (const chunk of await agent.stream(input, { streamMode })) chunks.push(chunk)
    expect(chunks).toHaveCalledTool('lookup_ticket', { id: 'T1' })
    expect(chunks).toHaveToolResult('lookup_ticket', TICKET_T1)
    if (streamMode === 'values') await expect(chunks).toSatisfyRubric(CRITERIA, { input: QUESTION })
  }
})

test('streamEvents v2: the events read as the output of the run they end with', async () => {
  const events: unknown[] = []
  for await (const event of agent.streamEvents(input, { version: 'v2' })) events.push(event)
  expect(events).toHaveToolCalls([{ name: 'lookup_ticket', args: { id: 'T1' } }])
  await expect(events).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

// A tool that needs a person's approval: `interrupt()` pauses the run, and the answer given to
// `new Command({ resume })` is what `interrupt()` returns when the run goes on.
const close = tool(
  async ({ id }) =>
    interrupt({ question: `Close ticket ${id}?` }) === 'approved'
      ? `${id}: closed`
      : `${id}: kept open`,
  {
    name: 'close_ticket',
    description: 'Close a ticket by its id, once a person approves.',
    schema: z.object({ id: z.string() }),
  },
)

test('interrupt() pauses the run, getState() shows the pause, a Command resumes it', async () => {
  const desk = createReactAgent({
    llm,
    tools: [lookup, close],
    prompt: DESK_PROMPT,
    checkpointer: new MemorySaver(),
  })
  const config = { configurable: { thread_id: 'close-T1' } }
  const ask = { messages: [{ role: 'user', content: 'Please close ticket T1.' }] }

  const paused = await desk.invoke(ask, config)
  expect(paused).toHaveBeenInterrupted()
  expect(paused).toHaveCalledTool('close_ticket', { id: 'T1' })
  expect(await desk.getState(config)).toHaveBeenInterrupted()

  await desk.invoke(new Command({ resume: 'approved' }), config)
  const snapshot = await desk.getState(config)
  expect(snapshot).not.toHaveBeenInterrupted()
  expect(snapshot).toHaveToolResult('close_ticket', 'T1: closed')
  await expect(snapshot).toSatisfyRubric('- Confirms that ticket T1 is closed', {
    input: ask.messages,
  })
})

test('a structured response is what the judge sees, and matches its schema', async () => {
  const Ticket = z.object({
    id: z.string(),
    status: z.enum(['open', 'closed']),
    assignee: z.string(),
  })
  const structured = createReactAgent({
    llm,
    tools: [lookup],
    prompt: DESK_PROMPT,
    responseFormat: Ticket,
  })
  const state = await structured.invoke(input)
  expect(state).toHaveStructuredResponse(Ticket)
  expect(state).toHaveStructuredResponse({ id: 'T1', status: 'open', assignee: 'Dana' })
  await expect(state).toSatisfyRubric(CRITERIA, { input: QUESTION })
})

describeEval('the LangGraph desk', {
  data: [{ input: QUESTION }],
  task: (row) => agent.invoke({ messages: [{ role: 'user', content: String(row.input) }] }),
  criteria: CRITERIA,
  scorers: [
    function looksTheTicketUp({ output }) {
      return toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0
    },
  ],
})
