// The OpenAI Agents SDK's results as they are (issue 29): the real `@openai/agents` runs a triage
// agent that hands off, calls a tool and an agent as a tool, against a fake Responses API on
// loopback; the matchers and helpers read `RunResult`, `StreamedRunResult`, `newItems`, `history`
// and `finalOutput` with no adapter. The judge is a keyword judge on the same server.
import { stripVTControlCharacters } from 'node:util'
import { run } from '@openai/agents'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  toHaveBeenInterrupted,
  toHaveCalledTool,
  toHaveToolCalls,
  toHaveToolResult,
  toPassScorer,
  toSatisfyRubric,
} from '../../matchers'
import {
  configureRubricate,
  createRubricScorer,
  outputText,
  resetRubricateConfig,
  runUntilComplete,
  taskText,
  toolCalls,
} from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'
import { deskModel, FINAL_REPLY, supportDesk } from './agents-sdk-agent'

expect.extend({
  toHaveBeenInterrupted,
  toHaveCalledTool,
  toHaveToolCalls,
  toHaveToolResult,
  toPassScorer,
  toSatisfyRubric,
})

let server: FakeOpenAI
let desk: ReturnType<typeof supportDesk>

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      request.path.endsWith('/responses') ? deskModel(request) : keywordJudge(request),
  })
  desk = supportDesk(server.baseURL)
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

const TRAJECTORY = [
  {
    name: 'transfer_to_Billing',
    args: {},
    id: 'call_handoff',
    agent: 'Triage',
    handoffTo: 'Billing',
  },
  { name: 'lookup_ticket', args: { id: 'T1' }, id: 'call_lookup', agent: 'Billing' },
  {
    name: 'ask_policy',
    args: { input: 'How long do refunds take?' },
    id: 'call_policy',
    agent: 'Billing',
  },
]

test('toolCalls reads a RunResult: each call with its agent, the handoff with its target', async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  expect(toolCalls(result)).toEqual(TRAJECTORY)
  expect(toolCalls(result.newItems)).toEqual(TRAJECTORY)
})

test('toolCalls reads history and output, where the SDK keeps no agent but the handoff target', async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  const withoutAgents = TRAJECTORY.map(({ agent: _agent, ...call }) => call)
  expect(toolCalls(result.history)).toEqual(withoutAgents)
  expect(toolCalls(result.output)).toEqual(withoutAgents)
})

test('outputText gives the final output of a result and the last reply of its items', async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  expect(outputText(result)).toBe(FINAL_REPLY)
  expect(outputText(result.history)).toBe(FINAL_REPLY)
  expect(outputText(result.newItems)).toBe(FINAL_REPLY)
  expect(outputText(result.newItems.at(-1))).toBe(FINAL_REPLY)
  expect(taskText(result.history)).toBe('What about ticket T1?')
})

test('the tool-call matchers and a handoff assertion work on a RunResult as it is', async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  expect(result).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(result).toHaveCalledTool('transfer_to_Billing')
  expect(result.newItems).not.toHaveCalledTool('refund')
  expect(result).toHaveToolCalls([
    { name: 'transfer_to_Billing', handoffTo: 'Billing', agent: 'Triage' },
    { name: 'lookup_ticket', agent: 'Billing' },
    'ask_policy',
  ])
  expect(result).not.toHaveToolCalls([
    { name: 'transfer_to_Billing', handoffTo: 'Policy' },
    'lookup_ticket',
    'ask_policy',
  ])
  let message = ''
  try {
    expect(result).toHaveToolCalls(['lookup_ticket'])
  } catch (error) {
    message = stripVTControlCharacters((error as Error).message)
  }
  expect(message).toContain('1. transfer_to_Billing {} by Triage → Billing')
  expect(message).toContain('2. lookup_ticket {"id": "T1"} by Billing')
})

test('toSatisfyRubric judges a RunResult by its final output, not the run as JSON', async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  server.clearRequests()
  await expect(result).toSatisfyRubric('- Mentions refunds take 5 days', {
    input: 'What about ticket T1?',
  })
  const prompt: string = server.requests[0]?.body.messages.at(-1).content
  expect(prompt).toContain(FINAL_REPLY)
  expect(prompt).not.toContain('rawItem')
  expect(prompt.length).toBeLessThan(3000)
})

test('a StreamedRunResult is read once it completes, and is a usage error before', async () => {
  const streamed = await run(desk.triage, 'What about ticket T1?', { stream: true })
  expect(() => toolCalls(streamed)).toThrowError(
    '[rubricate] The value under test is an OpenAI Agents SDK StreamedRunResult whose run has not finished, so its items and final output are not known yet. Wait for it first: `await result.completed` (or consume the stream to its end), then pass `result`.',
  )
  expect(() => outputText(streamed)).toThrowError(/has not finished/)
  await streamed.completed
  expect(toolCalls(streamed)).toEqual(TRAJECTORY)
  expect(streamed).toHaveCalledTool('ask_policy')
  await expect(streamed).toSatisfyRubric('- Mentions Ticket T1 is open')
})

test('a run stopped for a tool approval has its calls but no final output to judge', async () => {
  const gated = supportDesk(server.baseURL, { approveLookups: true })
  const result = await run(gated.triage, 'What about ticket T1?')
  expect(result.interruptions).toHaveLength(1)
  expect(result).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(result).toHaveBeenInterrupted()
  expect(() => expect(result).not.toHaveBeenInterrupted()).toThrowError(
    'Expected the run not to be paused, but it waits on 1 interrupt.',
  )
  expect(() => outputText(result)).toThrowError(
    '[rubricate] The value under test is an OpenAI Agents SDK run stopped for the approval of 1 tool call (`result.interruptions`), so it has no final output to judge. Approve or reject them and resume the run (`run(agent, result.state)`), then pass that result; its tool calls so far can be checked with toHaveCalledTool().',
  )
})

test("a finished run is not interrupted, and its tools' results are read", async () => {
  const result = await run(desk.triage, 'What about ticket T1?')
  expect(result).not.toHaveBeenInterrupted()
  expect(result).toHaveToolResult('lookup_ticket', 'ticket T1: open')
  expect(() => expect(result).toHaveToolResult('lookup_ticket', 'closed')).toThrowError(
    'Expected a call of the tool "lookup_ticket" to return this result, but none of its 1 call did.',
  )
})

test('runUntilComplete takes an agent that returns a RunResult and judges its final output', async () => {
  const loop = await runUntilComplete(({ input }) => run(desk.triage, input), {
    input: 'What about ticket T1?',
    scorers: [createRubricScorer({ criteria: '- Mentions refunds take 5 days' })],
    maxSteps: 2,
  })
  expect(loop.complete).toBe(true)
  expect(loop.iterations).toHaveLength(1)
  expect(toolCalls(loop.output)).toEqual(TRAJECTORY)
})

test('toPassScorer hands a run stopped for approval to a trajectory scorer, which reads its calls', async () => {
  const gated = supportDesk(server.baseURL, { approveLookups: true })
  const result = await run(gated.triage, 'What about ticket T1?')
  const asksToLookUp = {
    id: 'asks-to-look-up',
    run: async ({ output }: { output: unknown }) => ({
      score: toolCalls(output).some((call) => call.name === 'lookup_ticket') ? 1 : 0,
    }),
  }
  await expect(result).toPassScorer(asksToLookUp)
})
