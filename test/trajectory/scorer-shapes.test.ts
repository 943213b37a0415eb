// The trajectory scorers over every result shape the tool-call matchers read (issue 30, item 2):
// each result is made by the real SDK or framework against a fake server on loopback that speaks
// its protocol, then handed as it is to createToolCallScorer (partial credit) and to
// createTrajectoryRubric, whose judge must see each call with its result, not "(no result
// recorded)".

import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { type Content, GoogleGenAI } from '@google/genai'
import { HumanMessage } from '@langchain/core/messages'
import { tool as langChainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { Agent as MastraAgent } from '@mastra/core/agent'
import { createTool } from '@mastra/core/tools'
import { run } from '@openai/agents'
import { tool as aiTool, generateText, stepCountIs } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { toPassScorer } from '../../matchers'
import {
  configureRubricate,
  createToolCallScorer,
  createTrajectoryRubric,
  resetRubricateConfig,
  trajectoryText,
} from '../../src'
import {
  type FakeOpenAI,
  type FakeProviderServer,
  fakeReply,
  startFakeAnthropic,
  startFakeGemini,
  startFakeOpenAI,
} from '../../src/testing'
import { deskModel, supportDesk } from '../frameworks/agents-sdk-agent'
import { judgeBy, userMessage } from '../support/rubric-judge'

expect.extend({ toPassScorer })

let server: FakeOpenAI
let anthropic: FakeProviderServer
let gemini: FakeProviderServer
const judged: string[] = []

// The agent's model: looks ticket T1 up, then answers from the tool's result.
function agentModel(sent: string) {
  return sent.includes('ticket T1: open')
    ? 'Ticket T1 is open.'
    : fakeReply.text('', {
        toolCalls: [{ id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' }],
      })
}

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.path.endsWith('/responses')) return deskModel(request)
      if (request.body.model === 'gpt-judge') {
        judged.push(userMessage(request))
        // Met when the transcript shows the lookup's result under its call.
        return judgeBy(() =>
          /"tool":"lookup_ticket","arguments":\{"id":"T1"\},"result":"ticket T1: open"\}/.test(
            judged.at(-1) ?? '',
          ),
        )(request)
      }
      return agentModel(JSON.stringify(request.body.messages))
    },
  })
  const native = (request: { body?: Record<string, unknown> }) => {
    const sent = JSON.stringify(request.body)
    return sent.includes('ticket T1: open')
      ? 'Ticket T1 is open.'
      : { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 'T1' } }] }
  }
  anthropic = await startFakeAnthropic({ reply: native })
  gemini = await startFakeGemini({ reply: native })
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await Promise.all([server.close(), anthropic.close(), gemini.close()])
})

// Expected: the lookup, with its argument, and a call the agent never makes. Partial credit: 0.5.
const pathScorer = createToolCallScorer({
  id: 'ticket-path',
  expected: [{ name: 'lookup_ticket', args: { id: 'T1' } }, { name: 'close_ticket' }],
})
const pathRubric = createTrajectoryRubric({ criteria: '- Looks the ticket up and reads its state' })

// What each shape must give: half credit, the lookup's result under its call in the transcript,
// and a trajectory rubric whose judge saw it.
async function scoresThroughTheScorers(output: unknown, lookupLine: number): Promise<void> {
  const scored = await pathScorer.run({ output })
  expect(scored.score).toBe(0.5)
  expect(scored.reason).toContain(
    '1 of 2 expected calls matched (any order); matched lookup_ticket {"id":"T1"}; missing close_ticket',
  )
  await expect(output).toPassScorer(pathScorer, { threshold: 0.5 })
  await expect(output).not.toPassScorer(pathScorer, { threshold: 0.6 })
  expect(trajectoryText(output)).toContain(
    `{"call":${lookupLine},"tool":"lookup_ticket","arguments":{"id":"T1"},"result":"ticket T1: open"}`,
  )
  const judgedBefore = judged.length
  await expect(output).toPassScorer(pathRubric, { input: 'What about ticket T1?' })
  expect(judged.length).toBe(judgedBefore + 1)
}

const lookup = async ({ id }: { id: string }) => `ticket ${id}: open`

test('OpenAI chat: the conversation of a tool loop, with its tool message', async () => {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'What about ticket T1?' },
  ]
  const first = await client.chat.completions.create({ model: 'gpt-agent', messages })
  const call = first.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageToolCall
  messages.push(first.choices[0]?.message as OpenAI.ChatCompletionMessageParam)
  messages.push({ role: 'tool', tool_call_id: call.id, content: await lookup({ id: 'T1' }) })
  const last = await client.chat.completions.create({ model: 'gpt-agent', messages })
  messages.push(last.choices[0]?.message as OpenAI.ChatCompletionMessageParam)
  await scoresThroughTheScorers(messages, 1)
})

test('OpenAI Responses: the items of a tool loop, with their function_call_output', async () => {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const items: unknown[] = [{ role: 'user', content: 'What about ticket T1?' }]
  const first = await client.responses.create({
    model: 'gpt-agent',
    instructions: 'Help with billing.',
    input: items as never,
  })
  items.push(...first.output)
  const call = first.output.find((item) => item.type === 'function_call') as { call_id: string }
  expect(call).toBeDefined()
  items.push({ type: 'function_call_output', call_id: call.call_id, output: 'ticket T1: open' })
  await scoresThroughTheScorers(items, 1)
})

test('OpenAI Agents SDK: a RunResult, its newItems and its history', async () => {
  const result = await run(supportDesk(server.baseURL).triage, 'What about ticket T1?')
  // The handoff is call 1, the lookup call 2.
  for (const output of [result, result.newItems, result.history]) {
    await scoresThroughTheScorers(output, 2)
  }
  expect(trajectoryText(result)).toContain(
    '{"call":1,"tool":"transfer_to_Billing","arguments":{},"result":"{\\"assistant\\":\\"Billing\\"}"}',
  )
  expect(trajectoryText(result)).toContain(
    '{"call":3,"tool":"ask_policy","arguments":{"input":"How long do refunds take?"},"result":"Refunds take 5 days."}',
  )
})

test('LangChain: a LangGraph agent state, live and as a checkpoint stores it', async () => {
  const model = new ChatOpenAI({
    model: 'gpt-agent',
    apiKey: 'sk-test',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  })
  const tool = langChainTool(lookup, {
    name: 'lookup_ticket',
    description: 'Look a ticket up by its id.',
    schema: z.object({ id: z.string() }),
  })
  const state = await createReactAgent({ llm: model, tools: [tool] }).invoke({
    messages: [new HumanMessage('What about ticket T1?')],
  })
  await scoresThroughTheScorers(state, 1)
  await scoresThroughTheScorers(state.messages, 1)
  await scoresThroughTheScorers(JSON.parse(JSON.stringify(state)), 1)
})

test('Anthropic: the messages of a tool loop, with their tool_result block', async () => {
  const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 })
  const tools = [
    { name: 'lookup_ticket', input_schema: { type: 'object' as const, properties: {} } },
  ]
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What about ticket T1?' }]
  const first = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 200,
    messages,
    tools,
  })
  const use = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock
  messages.push({ role: 'assistant', content: first.content })
  messages.push({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: use.id, content: await lookup({ id: 'T1' }) }],
  })
  const last = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 200,
    messages,
    tools,
  })
  await scoresThroughTheScorers([...messages, last], 1)
})

test('Gemini: the contents of a tool loop, with their functionResponse part', async () => {
  const ai = new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { baseUrl: gemini.url } })
  const config = { tools: [{ functionDeclarations: [{ name: 'lookup_ticket' }] }] }
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'What about ticket T1?' }] }]
  const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
  const said = first.candidates?.[0]?.content as Content
  contents.push(said)
  const name = said.parts?.[0]?.functionCall?.name as string
  contents.push({
    role: 'user',
    parts: [{ functionResponse: { name, response: { output: await lookup({ id: 'T1' }) } } }],
  })
  const last = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
  contents.push(last.candidates?.[0]?.content as Content)
  await scoresThroughTheScorers(contents, 1)
})

test('AI SDK: a generateText result of two steps', async () => {
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  const result = await generateText({
    model,
    prompt: 'What about ticket T1?',
    tools: {
      lookup_ticket: aiTool({ inputSchema: z.object({ id: z.string() }), execute: lookup }),
    },
    stopWhen: stepCountIs(3),
  })
  expect(result.steps).toHaveLength(2)
  await scoresThroughTheScorers(result, 1)
  await scoresThroughTheScorers(result.steps, 1)
  await scoresThroughTheScorers(result.response.messages, 1)
})

test('Mastra: an agent.generate() result with a tool step', async () => {
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  const agent = new MastraAgent({
    id: 'desk',
    name: 'desk',
    instructions: 'Help with tickets.',
    model,
    tools: {
      lookup_ticket: createTool({
        id: 'lookup_ticket',
        description: 'Look a ticket up by its id.',
        inputSchema: z.object({ id: z.string() }),
        execute: async (input) => lookup(input as { id: string }),
      }),
    },
  })
  const result = await agent.generate('What about ticket T1?', { maxSteps: 3 })
  await scoresThroughTheScorers(result, 1)
})
