// The one reader of recorded streams (issue 29, item 5): SSE as the standard parses it, NDJSON,
// and what is read out of each provider's format.

import { expect, test } from 'vitest'
import { secretSet } from '../../src/cassettes/redaction/redaction'
import { findSecretInStream } from '../../src/cassettes/redaction/stream-secrets'
import { replyTokens, streamedText } from '../../src/cassettes/store/reply-formats'
import { sseEvents, streamEvents, usageEvent } from '../../src/cassettes/store/stream-events'

const chunks = (...texts: string[]) => texts.map((chunk, t) => ({ t, chunk }))

test('multi-line data fields are joined with a line break, and event names are kept', () => {
  expect(
    sseEvents('event: message_start\ndata: {"a":\ndata: 1}\n\n: a comment\ndata:[DONE]\r\n\r\n'),
  ).toEqual([
    { event: 'message_start', data: '{"a":\n1}', json: { a: 1 } },
    { event: undefined, data: '[DONE]', json: undefined },
  ])
})

test('CR and CRLF line ends, no space after the colon, and a last event without its blank line', () => {
  expect(sseEvents('data:{"x":1}\r\rdata: {"x":2}').map((event) => event.json)).toEqual([
    { x: 1 },
    { x: 2 },
  ])
})

test('NDJSON lines are events too', () => {
  expect(streamEvents(chunks('{"a":1}\n', '{"a":2}\n')).map((event) => event.json)).toEqual([
    { a: 1 },
    { a: 2 },
  ])
})

const anthropic = chunks(
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,\ndata: "delta":{"type":"text_delta","text":"lo"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
)

test("Anthropic: the text deltas, split data lines included, and the message's final usage", () => {
  expect(streamedText(anthropic)).toBe('Hello')
  expect(usageEvent(anthropic)).toEqual({ id: 'm', usage: { input_tokens: 12, output_tokens: 7 } })
  expect(replyTokens(usageEvent(anthropic))).toBe(19)
  expect(
    replyTokens({ usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 10 } }),
  ).toBe(17)
})

const gemini = chunks(
  'data: {"candidates":[{"content":{"parts":[{"text":"thinking","thought":true}]}}]}\r\n\r\n',
  'data: {"candidates":[{"content":{"parts":[{"text":"Par"}]}}],"usageMetadata":{"promptTokenCount":5,"totalTokenCount":5}}\r\n\r\n',
  'data: {"candidates":[{"content":{"parts":[{"text":"is."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}}\r\n\r\n',
)

test('Gemini: the text parts without thoughts, and the last usageMetadata', () => {
  expect(streamedText(gemini)).toBe('Paris.')
  expect(replyTokens(usageEvent(gemini))).toBe(7)
  expect(replyTokens({ usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3 } })).toBe(5)
})

test('OpenAI chat, Responses and Ollama streams read as before', () => {
  const chat = chunks(
    'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n',
    'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}\n\n',
    'data: [DONE]\n\n',
  )
  expect(streamedText(chat)).toBe('Hi')
  expect(replyTokens(usageEvent(chat))).toBe(4)
  const responses = chunks(
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Yo"}\n\n',
    'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":2,"output_tokens":1,"total_tokens":3}}}\n\n',
  )
  expect(streamedText(responses)).toBe('Yo')
  expect(replyTokens(usageEvent(responses))).toBe(3)
  const ollama = chunks(
    '{"message":{"content":"A"},"done":false}\n',
    '{"message":{"content":""},"done":true,"prompt_eval_count":4,"eval_count":2}\n',
  )
  expect(streamedText(ollama)).toBe('A')
  expect(replyTokens(usageEvent(ollama))).toBe(6)
})

test('a secret spelled across Anthropic deltas split over data lines is found', () => {
  const secret = 'sk-ant-api03-spelled-out-key'
  const pieces = ['sk-ant-', 'api03-spelled', '-out-key']
  const stream = chunks(
    ...pieces.map(
      (text) =>
        `event: content_block_delta\ndata: {"type":"content_block_delta",\ndata: "delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`,
    ),
  )
  expect(
    findSecretInStream(stream, secretSet([{ value: secret, label: 'ANTHROPIC_API_KEY' }])),
  ).toEqual({
    label: 'ANTHROPIC_API_KEY',
    path: 'response.sse[*].delta.text',
  })
})
