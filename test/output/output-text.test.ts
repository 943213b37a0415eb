import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { outputText } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

test('a string is judged as is', () => {
  expect(outputText('Refund issued.')).toBe('Refund issued.')
  expect(outputText('')).toBe('')
})

test('an object with a text field gives its text', () => {
  expect(outputText({ text: 'Hello', usage: { tokens: 3 } })).toBe('Hello')
})

test('an object with string content gives the content', () => {
  expect(outputText({ role: 'assistant', content: 'Sure thing' })).toBe('Sure thing')
})

test('content parts are joined and non-text parts (images, tool calls, reasoning) are left out', () => {
  expect(
    outputText({
      content: [
        { type: 'reasoning', text: 'thinking about it' },
        { type: 'text', text: 'First part. ' },
        { type: 'image_url', image_url: { url: 'https://example.test/x.png' } },
        { type: 'tool-call', toolName: 'lookup', input: {} },
        { type: 'text', text: 'Second part.' },
      ],
    }),
  ).toBe('First part. Second part.')
})

test('a Mastra stored message gives its content text or its text parts', () => {
  expect(
    outputText({ content: { format: 2, parts: [{ type: 'text', text: 'From parts' }] } }),
  ).toBe('From parts')
  expect(outputText({ content: { format: 2, parts: [], content: 'From content' } })).toBe(
    'From content',
  )
})

test('an OpenAI chat completion from the real SDK gives the first choice message', async () => {
  server = await startFakeOpenAI({ reply: 'The refund takes five days.' })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const completion = await client.chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'How long does a refund take?' }],
  })
  expect(outputText(completion)).toBe('The refund takes five days.')
})

test('a chat completion that refused gives the refusal, and one with only tool calls gives its message as JSON', () => {
  expect(
    outputText({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help.' } }],
    }),
  ).toBe('I cannot help.')
  const toolCall = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 't1', type: 'function', function: { name: 'refund', arguments: '{}' } }],
  }
  expect(outputText({ object: 'chat.completion', choices: [{ message: toolCall }] })).toBe(
    `{
  "content": null,
  "role": "assistant",
  "tool_calls": [
    {
      "function": {
        "arguments": "{}",
        "name": "refund"
      },
      "id": "t1",
      "type": "function"
    }
  ]
}`,
  )
})

test('an OpenAI Responses object from the real SDK gives its output text', async () => {
  server = await startFakeOpenAI({ reply: 'Responses say hello.' })
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 })
  const response = await client.responses.create({ model: 'gpt-test', input: 'hi' })
  expect(outputText(response)).toBe('Responses say hello.')
})

test('a raw Responses object without output_text gives the text parts of its output messages', () => {
  expect(
    outputText({
      object: 'response',
      output: [
        { type: 'reasoning', summary: [] },
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Part one, ' },
            { type: 'output_text', text: 'part two.' },
          ],
        },
      ],
    }),
  ).toBe('Part one, part two.')
})

test('a message list gives the last assistant message that has text, its parts joined', () => {
  expect(
    outputText([
      { role: 'user', content: 'Refund?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking ' },
          { type: 'text', text: 'now.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolName: 'refund', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', output: 'ok' }] },
    ]),
  ).toBe('Checking now.')
})

test('AI SDK UI messages with parts are read too', () => {
  expect(
    outputText([
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello from the UI' }] },
    ]),
  ).toBe('Hello from the UI')
})

test('an AI SDK generateText result gives its text', async () => {
  server = await startFakeOpenAI({ reply: 'AI SDK answer' })
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' })
  const result = await generateText({
    model: provider.chat('gpt-test'),
    prompt: 'hi',
    maxRetries: 0,
  })
  expect(outputText(result)).toBe('AI SDK answer')
})

test('a Mastra agent result gives its text', () => {
  // The shape of Mastra's `agent.generate()` result (FullOutput), reduced to what matters.
  expect(
    outputText({
      text: 'Mastra answer',
      object: undefined,
      toolCalls: [],
      response: { messages: [{ role: 'assistant', content: 'ignored' }] },
    }),
  ).toBe('Mastra answer')
})

test('anything else is JSON with sorted keys', () => {
  expect(outputText({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe(`{
  "a": {
    "c": "x",
    "d": [
      1,
      2
    ]
  },
  "b": 1
}`)
  expect(outputText(['one', 'two'])).toBe('[\n  "one",\n  "two"\n]')
  expect(outputText(42)).toBe('42')
  expect(outputText(true)).toBe('true')
})

test('undefined and null give the empty string', () => {
  expect(outputText(undefined)).toBe('')
  expect(outputText(null)).toBe('')
})

test('circular objects, binary data and bigints do not crash', () => {
  const circular: Record<string, unknown> = { name: 'loop' }
  circular.self = circular
  expect(outputText(circular)).toBe('{\n  "name": "loop",\n  "self": "[circular]"\n}')
  expect(outputText(Buffer.from('hello'))).toBe('[binary: 5 bytes]')
  expect(outputText(new Uint8Array(3))).toBe('[binary: 3 bytes]')
  expect(outputText({ audio: new ArrayBuffer(8), n: 10n })).toBe(
    '{\n  "audio": "[binary: 8 bytes]",\n  "n": "10n"\n}',
  )
})

test('a Promise is a usage error that says to await it or use .resolves', () => {
  expect(() => outputText(Promise.resolve('late'))).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        '[rubricate] The value under test is a Promise, so there is nothing to judge yet. Await it first (`expect(await agent(input))`), or use `.resolves` (`await expect(agent(input)).resolves.toSatisfyRubric(...)`).',
        'usage',
      ),
    }),
  )
  // biome-ignore lint/suspicious/noThenProperty: a hand-made thenable is what this test is about
  const thenable = { then: () => undefined }
  expect(() => outputText(thenable)).toThrowError(
    expect.objectContaining({ code: 'RUBRICATE_USAGE' }),
  )
})

test('a streaming result whose text is a Promise is a usage error that says to await the text', () => {
  expect(() => outputText({ text: Promise.resolve('later') })).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        "[rubricate] The value under test has a `text` that is a Promise (a streaming result, such as the AI SDK's streamText or a Mastra stream), so its text is not known yet. Await the text first: `expect(await result.text)`.",
        'usage',
      ),
    }),
  )
})

test('a toJSON that throws and nesting deeper than 100 levels render as placeholders', () => {
  const broken = {
    ok: 1,
    bad: {
      toJSON() {
        throw new Error('no')
      },
    },
  }
  expect(outputText(broken)).toBe('{\n  "bad": "[unreadable]",\n  "ok": 1\n}')
  let deep: Record<string, unknown> = {}
  const root = deep
  for (let i = 0; i < 10_000; i++) {
    const next = {}
    deep.a = next
    deep = next
  }
  const text = outputText(root)
  expect(text).toContain('"[nested too deep]"')
  expect(text.match(/"a":/g)).toHaveLength(100)
})

test('a value that cannot be read at all is a usage error saying what to pass', () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('revoked')
      },
    },
  )
  expect(() => outputText(hostile)).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        '[rubricate] The value under test could not be read as text for the judge: reading it threw "revoked". Pass a string, or a plain object or array whose fields can be read.',
        'usage',
      ),
    }),
  )
})
