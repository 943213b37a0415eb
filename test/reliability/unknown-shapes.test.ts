// Group 8, in the shapes agent frameworks return (issue 29): a trajectory rubricate cannot read
// must never read as "no tool calls", or `.not.toHaveCalledTool(x)` passes although `x` was
// called. Each framework's real result, or the list a user would naturally pass, either yields
// its calls or is a usage error naming what was found.
import { stripVTControlCharacters } from 'node:util'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { AIMessage, HumanMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { Agent as MastraAgent } from '@mastra/core/agent'
import { createTool } from '@mastra/core/tools'
import { run } from '@openai/agents'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { toHaveCalledTool, toHaveToolCalls } from '../../matchers'
import { outputText, toolCalls } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeAnthropic, startFakeOpenAI } from '../../src/testing'
import { deskModel, supportDesk } from '../frameworks/agents-sdk-agent'
import { linked } from '../support/error-page'

expect.extend({ toHaveCalledTool, toHaveToolCalls })

let server: FakeOpenAI

// The Agents SDK desk on `/responses`; every other agent calls `lookup_ticket` once, then answers.
beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.path.endsWith('/responses') && request.body.instructions)
        return deskModel(request)
      const sent = JSON.stringify(request.body)
      if (sent.includes('ticket T1: open')) return 'Ticket T1 is open.'
      return fakeReply.text('', {
        toolCalls: [{ id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' }],
      })
    },
  })
})
afterAll(() => server.close())

function failureOf(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return stripVTControlCharacters((error as Error).message)
  }
  throw new Error('The assertion passed.')
}

describe('8. Accidental passes', () => {
  test('an Agents SDK newItems list: .not.toHaveCalledTool fails when the tool was called', async () => {
    const result = await run(supportDesk(server.baseURL).triage, 'What about ticket T1?')
    expect(
      failureOf(() => expect(result.newItems).not.toHaveCalledTool('lookup_ticket')),
    ).toContain('Expected no call of the tool "lookup_ticket", but call 2 is one.')
    expect(() => expect(result).not.toHaveCalledTool('lookup_ticket')).toThrowError()
    expect(() => expect(result.history).not.toHaveCalledTool('lookup_ticket')).toThrowError()
  })

  test('an Agents SDK list with an entry of no known shape is a usage error naming it, for calls and text', async () => {
    const result = await run(supportDesk(server.baseURL).triage, 'What about ticket T1?')
    const items = [...result.history, { type: 'future_tool_invocation', tool: 'lookup_ticket' }]
    const message = failureOf(() => expect(items).not.toHaveCalledTool('lookup_ticket'))
    expect(message).toMatch(
      /^\[rubricate\] No tool calls can be read from a list of 9 entries whose entry 8 is an object of type "future_tool_invocation" with keys "type", "tool", so rubricate cannot tell which tools were called/,
    )
    expect(message).toContain('an OpenAI Agents SDK RunResult or StreamedRunResult')
    expect(() => outputText(items)).toThrowError(
      /^\[rubricate\] The value under test is a list of 9 entries whose entry 8 is an object of type "future_tool_invocation"/,
    )
  })

  /** A LangGraph ReAct agent's state after it looked ticket T1 up, against the fake server. */
  async function ticketAgentState() {
    const model = new ChatOpenAI({
      model: 'gpt-test',
      apiKey: 'sk-test',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    })
    const lookup = langchainTool(async ({ id }) => `ticket ${id}: open`, {
      name: 'lookup_ticket',
      description: 'Look a ticket up.',
      schema: z.object({ id: z.string() }),
    })
    return createReactAgent({ llm: model, tools: [lookup] }).invoke({
      messages: [new HumanMessage('What about ticket T1?')],
    })
  }

  test('a LangGraph state: .not.toHaveCalledTool fails when its agent called the tool', async () => {
    const state = await ticketAgentState()
    expect(() => expect(state).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
    expect(() => expect(state.messages).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
    expect(() =>
      expect([...state.messages, { type: 'checkpoint', id: 'c1' }]).not.toHaveCalledTool('x'),
    ).toThrowError(/entry 4 is an object of type "checkpoint" with keys "type", "id"/)
  })

  test('a LangGraph state as a checkpoint stores it (serialized messages): .not.toHaveCalledTool fails when the tool was called', async () => {
    const state = await ticketAgentState()
    const stored = JSON.parse(JSON.stringify(state))
    expect(stored.messages[1]).toMatchObject({ lc: 1, type: 'constructor' })
    expect(() => expect(stored).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
    expect(() => expect(stored.messages).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
    expect(outputText(stored)).toBe('Ticket T1 is open.')
    // Serialized before LangChain had `tool_calls`: the calls are in `additional_kwargs`.
    const older = {
      lc: 1,
      type: 'constructor',
      id: ['langchain', 'schema', 'AIMessage'],
      kwargs: {
        content: '',
        additional_kwargs: {
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'lookup_ticket', arguments: '{}' } },
          ],
        },
      },
    }
    expect(() => expect([older]).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
  })

  test('a serialized LangChain object that is no message is a usage error naming its class', () => {
    const removal = {
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'RemoveMessage'],
      kwargs: { id: 'm1', content: '' },
    }
    const human = {
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'HumanMessage'],
      kwargs: { content: 'Close ticket T1.' },
    }
    expect(failureOf(() => expect([human, removal]).not.toHaveCalledTool('x'))).toMatch(
      /^\[rubricate\] No tool calls can be read from a list of 2 entries whose entry 1 is a serialized LangChain "RemoveMessage", so rubricate cannot tell/,
    )
    expect(failureOf(() => expect({ messages: [human, removal] }).toHaveCalledTool('x'))).toMatch(
      /^\[rubricate\] No tool calls can be read from an object with keys "messages", whose "messages" are a list of 2 entries whose entry 1 is a serialized LangChain "RemoveMessage", so/,
    )
    expect(() => outputText([human, removal])).toThrowError(
      /^\[rubricate\] The value under test is a list of 2 entries whose entry 1 is a serialized LangChain "RemoveMessage"/,
    )
  })

  test('an AI SDK content list: .not.toHaveCalledTool fails when the tool was called', async () => {
    const result = await generateText({
      model: createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-test'),
      prompt: 'What about ticket T1?',
      tools: {
        lookup_ticket: tool({
          description: 'Look a ticket up.',
          inputSchema: jsonSchema<{ id: string }>({
            type: 'object',
            properties: { id: { type: 'string' } },
            required: ['id'],
          }),
          execute: async ({ id }) => `ticket ${id}: open`,
        }),
      },
      stopWhen: stepCountIs(1),
      maxRetries: 0,
    })
    expect(() => expect(result.content).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
  })

  test("a Mastra stream's chunks: .not.toHaveCalledTool fails when the tool was called", async () => {
    const agent = new MastraAgent({
      id: 'desk',
      name: 'desk',
      instructions: 'Help.',
      model: createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-test'),
      tools: {
        lookup_ticket: createTool({
          id: 'lookup_ticket',
          description: 'Look a ticket up.',
          inputSchema: z.object({ id: z.string() }),
          execute: async ({ id }) => `ticket ${id}: open`,
        }),
      },
    })
    const stream = await agent.stream('What about ticket T1?')
    const chunks: unknown[] = []
    for await (const chunk of stream.fullStream) chunks.push(chunk)
    expect(() => expect(chunks).not.toHaveCalledTool('lookup_ticket')).toThrowError(
      /Expected no call of the tool "lookup_ticket"/,
    )
    expect(await stream.text).toBe('Ticket T1 is open.')
  })

  test('Anthropic and Gemini replies: .not.toHaveCalledTool fails when the model asked for the tool', () => {
    // The JSON both APIs answer with (the SDKs hand it over as it is).
    const anthropic = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Looking it up.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup_ticket', input: { id: 'T1' } },
      ],
      stop_reason: 'tool_use',
    }
    const gemini = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'lookup_ticket', args: { id: 'T1' } } }],
          },
        },
      ],
    }
    expect(toolCalls(anthropic)).toEqual([
      { name: 'lookup_ticket', args: { id: 'T1' }, id: 'toolu_1' },
    ])
    expect(toolCalls(gemini)).toEqual([{ name: 'lookup_ticket', args: { id: 'T1' } }])
    expect(() => expect([anthropic]).not.toHaveCalledTool('lookup_ticket')).toThrowError()
    expect(() => expect(gemini).not.toHaveCalledTool('lookup_ticket')).toThrowError()
  })

  test('a LangChain AIMessage alone: its tool_calls are read, not its provider blocks twice', () => {
    const message = new AIMessage({
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_ticket', input: { id: 'T1' } }],
      tool_calls: [{ id: 'toolu_1', name: 'lookup_ticket', args: { id: 'T1' }, type: 'tool_call' }],
    })
    expect(toolCalls(message)).toEqual([
      { name: 'lookup_ticket', args: { id: 'T1' }, id: 'toolu_1' },
    ])
    expect(() => expect(message).not.toHaveCalledTool('lookup_ticket')).toThrowError()
  })

  test('an Anthropic SDK stream that has not ended: .not.toHaveCalledTool is a usage error, not a pass', async () => {
    // Until it ends, a MessageStream's `messages` hold only what was sent: read as a state, they
    // made no calls, and `.not.toHaveCalledTool` passed although the model asked for the tool.
    const anthropic = await startFakeAnthropic({
      reply: { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 'T1' } }] },
    })
    try {
      const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 })
      const ask = {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user' as const, content: 'What about ticket T1?' }],
        tools: [{ name: 'lookup_ticket', input_schema: { type: 'object' as const } }],
      }
      const stream = client.messages.stream(ask)
      expect(failureOf(() => expect(stream).not.toHaveCalledTool('lookup_ticket'))).toBe(
        linked(
          "[rubricate] The value under test is an SDK MessageStream (a stream or tool runner of the Anthropic or OpenAI SDK) that has not ended, so its `messages` hold only what was sent: its tool calls and reply are not known yet. Wait for it first: `await stream.finalMessage()` (Anthropic's `messages.stream()`), `await runner.done()` (OpenAI's `chat.completions.stream()` or `runTools()`), then pass it or its final message.",
          'usage',
        ),
      )
      expect(() => outputText(stream)).toThrowError(/MessageStream .* has not ended/)
      await stream.finalMessage()
      expect(stream).toHaveCalledTool('lookup_ticket', { id: 'T1' })
      expect(() => expect(stream).not.toHaveCalledTool('lookup_ticket')).toThrowError(
        /Expected no call of the tool "lookup_ticket"/,
      )
      const aborted = client.messages.stream(ask)
      const settled = aborted.done().catch(() => undefined)
      aborted.abort()
      await settled
      expect(() => toolCalls(aborted)).toThrowError(/MessageStream .* failed or was aborted/)
    } finally {
      await anthropic.close()
    }
  })

  test('an OpenAI SDK runTools runner that has not ended: .not.toHaveCalledTool is a usage error, not a pass', async () => {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
    const runner = client.chat.completions.runTools({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'What about ticket T1?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup_ticket',
            description: 'Look a ticket up.',
            parameters: { type: 'object', properties: { id: { type: 'string' } } },
            parse: JSON.parse,
            function: async ({ id }: { id: string }) => `ticket ${id}: open`,
          },
        },
      ],
    })
    expect(failureOf(() => expect(runner).not.toHaveCalledTool('lookup_ticket'))).toMatch(
      /^\[rubricate\] The value under test is an SDK ChatCompletionRunner .* that has not ended/,
    )
    await runner.done()
    expect(runner).toHaveCalledTool('lookup_ticket', { id: 'T1' })
    expect(outputText(runner)).toBe('Ticket T1 is open.')
  })
})
