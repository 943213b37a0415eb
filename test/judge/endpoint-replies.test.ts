import { afterEach, expect, test } from 'vitest'
import { rootCause } from '../../src/errors'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf, scoreWith } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const notACompletion = (url: string, what: string) =>
  linked(
    `[rubricate] The judge "gpt-test" at "${url}" answered HTTP 200, but with ${what} instead of a chat completion. Check that baseURL points at an OpenAI-compatible API (it usually ends in "/v1"), not at a web page, a proxy's login page or another API.`,
    'judge-request',
  )

test('a 200 that is a web page, not a chat completion, is RUBRICATE_JUDGE_REQUEST saying to check baseURL', async () => {
  server = await startFakeOpenAI({
    reply: fakeReply.raw({
      headers: { 'content-type': 'text/html' },
      body: '<html>Sign in</html>',
    }),
  })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({ output: 'x' }),
  )
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    status: 200,
    message: notACompletion(server.baseURL, 'the body "<html>Sign in</html>"'),
  })
  expect(server.requests).toHaveLength(1)
})

test('a 200 whose body is not JSON is RUBRICATE_JUDGE_REQUEST, not a bare SyntaxError', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.malformed('{"choices": [') })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({ output: 'x' }),
  )
  const cause = rootCause(error) as Error
  expect(cause).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', status: 200 })
  expect(cause.message).toMatch(
    /answered HTTP 200, but with a body that is not JSON \(.+\) instead/,
  )
})

test('a 200 with an empty body or JSON of another API is RUBRICATE_JUDGE_REQUEST', async () => {
  server = await startFakeOpenAI({
    reply: [fakeReply.raw({ body: '' }), fakeReply.raw({ body: { data: [] } })],
  })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  // openai 6.49 hands the judge an empty completion; openai 6.0 fails to parse the empty body. Both
  // say what the judge answered.
  const empty = rootCause(await rejectionOf(scoreWith(judge).run({ output: 'x' })))
  expect(empty).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST' })
  expect([
    notACompletion(server.baseURL, 'an empty body'),
    notACompletion(server.baseURL, 'a body that is not JSON (Unexpected end of JSON input)'),
  ]).toContain((empty as Error).message)
  expect(rootCause(await rejectionOf(scoreWith(judge).run({ output: 'x' })))).toMatchObject({
    message: notACompletion(server.baseURL, 'the body {"data":[]}'),
  })
})

test('a reply whose body is cut off is a connection error that the SDK retries, bounded', async () => {
  server = await startFakeOpenAI({
    reply: [fakeReply.text('x'.repeat(400), { dropAfterChunks: 1 }), { score: 0.5 }],
  })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', maxRetries: 1 }
  const result = await scoreWith(judge).run({ output: 'x' })
  expect(result.score).toBe(0.5)
  expect(result.judgeCalls[0]).toMatchObject({ attemptCount: 1, modelCallCount: 2 })
})

test('a refusal with no content reaches the error as the raw reply, not as an empty string', async () => {
  const refusal = {
    id: 'chatcmpl-r',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
      },
    ],
  }
  server = await startFakeOpenAI({ reply: fakeReply.raw({ body: refusal }) })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({ output: 'x' }),
  )
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_JUDGE_OUTPUT',
    rawText: 'I cannot help with that.',
  })
  expect(server.requests[1]?.body.messages.at(-2)).toEqual({
    role: 'assistant',
    content: 'I cannot help with that.',
  })
})

test('content sent as a list of text parts is read as the text of its parts', async () => {
  const body = {
    id: 'chatcmpl-p',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: '{"score": ' },
            { type: 'text', text: '0.5}' },
          ],
        },
      },
    ],
  }
  server = await startFakeOpenAI({ reply: fakeReply.raw({ body }) })
  const result = await scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(result.score).toBe(0.5)
  expect(server.requests).toHaveLength(1)
})

test('a base URL that is not a URL is a usage error naming where it came from', async () => {
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: 'localhost:11434', apiKey: 'k' }).run({ output: 'x' }),
  )
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] The judge "gpt-test" has the base URL "localhost:11434" (baseURL in the judge object), which is not an http(s) URL. Give the endpoint\'s full URL, such as "https://api.openai.com/v1" or "http://localhost:11434/v1".',
      'usage',
    ),
  })
})
