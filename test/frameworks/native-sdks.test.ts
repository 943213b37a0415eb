// The Anthropic SDK's and @google/genai's results as they are, plain and streamed (issue 29, the
// recipes of docs/guide/frameworks.md): the real clients against fake servers on loopback that
// speak each protocol; the matchers read a Message, a stream's final Message and a Gemini
// stream's contents with no adapter.
import Anthropic from '@anthropic-ai/sdk'
import { type Content, GoogleGenAI } from '@google/genai'
import { afterEach, expect, test } from 'vitest'
import { toHaveCalledTool } from '../../matchers'
import { outputText } from '../../src'
import { type FakeProviderServer, startFakeAnthropic, startFakeGemini } from '../../src/testing'

expect.extend({ toHaveCalledTool })

const servers: FakeProviderServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const lookup = { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 'T1' } }] }

test("an Anthropic Message and a stream's final Message: their tool_use blocks are the calls", async () => {
  const server = await startFakeAnthropic({
    reply: (request) => (request.body?.tools ? lookup : 'Ticket T1 is open.'),
  })
  servers.push(server)
  const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 })
  const ask = {
    model: 'claude-sonnet-4-5',
    max_tokens: 200,
    messages: [{ role: 'user' as const, content: 'Look up ticket T1.' }],
  }
  const tools = [
    { name: 'lookup_ticket', input_schema: { type: 'object' as const, properties: {} } },
  ]
  const message = await client.messages.create({ ...ask, tools })
  expect(message).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  const streamed = await client.messages.stream({ ...ask, tools }).finalMessage()
  expect(streamed).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(streamed).not.toHaveCalledTool('close_ticket')
  expect(outputText(await client.messages.stream(ask).finalMessage())).toBe('Ticket T1 is open.')
})

test("a Gemini stream: its chunks' contents carry the calls, its joined text the reply", async () => {
  const server = await startFakeGemini({
    reply: (request) => (request.body?.tools ? lookup : 'Ticket T1 is open.'),
  })
  servers.push(server)
  const ai = new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { baseUrl: server.url } })
  const tools = [{ functionDeclarations: [{ name: 'lookup_ticket' }] }]
  const said: Content[] = []
  const stream = await ai.models.generateContentStream({
    model: 'gemini-2.5-flash',
    contents: 'Look up ticket T1.',
    config: { tools },
  })
  for await (const chunk of stream) {
    const content = chunk.candidates?.[0]?.content
    if (content) said.push(content)
  }
  expect(said).toHaveCalledTool('lookup_ticket', { id: 'T1' })
  expect(said).not.toHaveCalledTool('close_ticket')
  let text = ''
  for await (const chunk of await ai.models.generateContentStream({
    model: 'gemini-2.5-flash',
    contents: 'Is ticket T1 open?',
  })) {
    text += chunk.text ?? ''
  }
  expect(text).toBe('Ticket T1 is open.')
  const plain = await ai.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: 'Look up ticket T1.',
    config: { tools },
  })
  expect(plain).toHaveCalledTool('lookup_ticket', { id: 'T1' })
})
