// toMatchTrajectory over real SDK results: an AI SDK generateText result and a LangGraph agent's
// state, made against a fake OpenAI server on loopback, each matched against a reference taken
// from the other framework's run, a plain call list and OpenAI chat messages; the failure table
// and `.not`.
import { stripVTControlCharacters } from 'node:util'
import { createOpenAI } from '@ai-sdk/openai'
import { HumanMessage } from '@langchain/core/messages'
import { tool as langChainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { generateText, stepCountIs, tool } from 'ai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { toMatchTrajectory, toPassScorer } from '../../matchers'
import { createToolCallScorer } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'

expect.extend({ toMatchTrajectory, toPassScorer })

let server: FakeOpenAI

// The agent's model: looks ticket T1 up and notifies its owner in one turn, then answers.
beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      JSON.stringify(request.body.messages).includes('ticket T1: open')
        ? 'Ticket T1 is open; Ada is told.'
        : fakeReply.text('', {
            toolCalls: [
              { id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' },
              { id: 'call_notify', name: 'notify', arguments: '{"who":"Ada","urgent":false}' },
            ],
          }),
  })
})
afterAll(() => server.close())

const lookup = async ({ id }: { id: string }) => `ticket ${id}: open`
const notify = async ({ who }: { who: string; urgent: boolean }) => `told ${who}`

async function aiSdkRun() {
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
  return generateText({
    model,
    prompt: 'What about ticket T1?',
    tools: {
      lookup_ticket: tool({ inputSchema: z.object({ id: z.string() }), execute: lookup }),
      notify: tool({
        inputSchema: z.object({ who: z.string(), urgent: z.boolean() }),
        execute: notify,
      }),
    },
    stopWhen: stepCountIs(3),
  })
}

async function langGraphRun() {
  const model = new ChatOpenAI({
    model: 'gpt-agent',
    apiKey: 'sk-test',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  })
  const tools = [
    langChainTool(lookup, {
      name: 'lookup_ticket',
      description: 'Look a ticket up by its id.',
      schema: z.object({ id: z.string() }),
    }),
    langChainTool(notify, {
      name: 'notify',
      description: "Tell a ticket's owner.",
      schema: z.object({ who: z.string(), urgent: z.boolean() }),
    }),
  ]
  return createReactAgent({ llm: model, tools }).invoke({
    messages: [new HumanMessage('What about ticket T1?')],
  })
}

function failureOf(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return stripVTControlCharacters((error as Error).message)
  }
  throw new Error('The assertion passed.')
}

test('an AI SDK result matches a LangGraph run taken as the reference, and back', async () => {
  const aiSdk = await aiSdkRun()
  const state = await langGraphRun()
  expect(aiSdk).toMatchTrajectory(state, { args: 'exact' })
  expect(aiSdk).toMatchTrajectory(state.messages, { mode: 'unordered' })
  expect(state).toMatchTrajectory(aiSdk.steps, { args: 'exact' })
  expect(state).toMatchTrajectory(aiSdk.response.messages, { mode: 'superset' })
  // The scorer agrees: 1 where the matcher passes.
  await expect(aiSdk).toPassScorer(createToolCallScorer({ reference: state, args: 'exact' }))
})

test('each mode against a plain call list, over both frameworks', async () => {
  for (const run of [await aiSdkRun(), await langGraphRun()]) {
    const lookupOnly = [{ name: 'lookup_ticket', args: { id: 'T1' } }]
    expect(run).toMatchTrajectory(lookupOnly, { mode: 'superset' })
    expect(run).not.toMatchTrajectory(lookupOnly, { mode: 'subset' })
    expect(run).not.toMatchTrajectory(lookupOnly)
    const both = [...lookupOnly, { name: 'notify', args: { who: 'Ada' } }, { name: 'escalate' }]
    expect(run).toMatchTrajectory(both, { mode: 'subset' })
    expect(run).not.toMatchTrajectory(both, { mode: 'superset' })
    expect(run).toMatchTrajectory(['notify', 'lookup_ticket'], { mode: 'unordered' })
    expect(run).not.toMatchTrajectory(['notify', 'lookup_ticket'], { mode: 'strict' })
    // notify holds "urgent" too: exact only where the reference says so.
    const exactLookup = [...lookupOnly, { name: 'notify', args: { who: 'Ada' } }]
    expect(run).not.toMatchTrajectory(exactLookup, { args: 'exact' })
    expect(run).toMatchTrajectory(exactLookup, { args: 'exact', argsByTool: { notify: 'subset' } })
    expect(run).toMatchTrajectory(exactLookup, {
      args: (want, got) => (want as { id?: string }).id === (got as { id?: string }).id,
      argsByTool: { notify: 'ignore' },
    })
  }
})

test('the failure shows each reference call with its status and the call it was found at', async () => {
  const run = await aiSdkRun()
  const reference = [
    { role: 'user', content: 'What about ticket T1?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'r1', type: 'function', function: { name: 'notify', arguments: '{"who":"Ada"}' } },
        {
          id: 'r2',
          type: 'function',
          function: { name: 'lookup_ticket', arguments: '{"id":"T1"}' },
        },
        {
          id: 'r3',
          type: 'function',
          function: { name: 'close_ticket', arguments: '{"id":"T1"}' },
        },
      ],
    },
  ]
  expect(failureOf(() => expect(run).toMatchTrajectory(reference))).toBe(
    [
      'expect(output).toMatchTrajectory(reference)',
      '',
      'The tool calls do not match the reference trajectory (mode "strict"): 1 of 3 reference calls matched, 1 missing, 1 out of order.',
      '',
      '  Reference (strict, args: subset)               │ Actual (2 calls)',
      '  ✓ 1. notify {"who": "Ada"}                     │ 2. notify {"urgent": false, "who": "Ada"}',
      '  ✗ 2. lookup_ticket {"id": "T1"} (out of order) │ 1. lookup_ticket {"id": "T1"}',
      '  ✗ 3. close_ticket {"id": "T1"} (missing)       │',
    ].join('\n'),
  )
  expect(
    failureOf(() => expect(run).toMatchTrajectory(['lookup_ticket'], { mode: 'subset' })),
  ).toContain(
    [
      '  ✓ 1. lookup_ticket (any args)    │ 1. lookup_ticket {"id": "T1"}',
      '  + extra                          │ 2. notify {"urgent": false, "who": "Ada"}',
    ].join('\n'),
  )
  expect(
    failureOf(() =>
      expect(run).not.toMatchTrajectory(['notify', 'lookup_ticket'], { mode: 'unordered' }),
    ),
  ).toContain(
    'Expected the tool calls not to match the reference trajectory (mode "unordered"), but they do.',
  )
})

test('bad options and unreadable references are usage errors', async () => {
  const run = await aiSdkRun()
  expect(() => expect(run).toMatchTrajectory([], { mode: 'loose' } as never)).toThrow(
    '[rubricate] toMatchTrajectory() option "mode" is "loose", which is not supported. Use one of "strict", "unordered", "subset", "superset".',
  )
  expect(() => expect(run).toMatchTrajectory([], { order: 'any' } as never)).toThrow(
    'toMatchTrajectory() options got an unknown option "order"',
  )
  expect(() => expect(run).toMatchTrajectory({ text: 'hi' })).toThrow(
    '[rubricate] toMatchTrajectory() got a reference trajectory it cannot read.',
  )
})
