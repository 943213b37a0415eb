import { afterEach, expect, test, vi } from 'vitest'
import { type JudgeRequestError, rootCause, type ScorerRunError } from '../../src/errors'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked, linkedPattern } from '../support/error-page'
import { messagesOf, rejectionOf, scoreWith } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  server = undefined
})

const SCORE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'score',
    schema: {
      type: 'object',
      properties: { score: { type: 'number' } },
      required: ['score'],
      additionalProperties: false,
    },
    strict: true,
  },
}

test('"openai/<model>" reads OPENAI_API_KEY and OPENAI_BASE_URL when the call is made', async () => {
  server = await startFakeOpenAI({ reply: { score: 0.75 } })
  const scorer = scoreWith('openai/gpt-test')
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
  vi.stubEnv('OPENAI_API_KEY', 'sk-from-env')
  const result = await scorer.run({ output: 'Paris' })
  expect(result.score).toBe(0.75)
  expect(server.requests).toHaveLength(1)
  const [request] = server.requests
  expect(request?.path).toBe('/v1/chat/completions')
  expect(request?.headers.authorization).toBe('Bearer sk-from-env')
  // Exactly this body: no temperature and no seed unless they are set.
  expect(request?.body).toEqual({
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'You grade answers.' },
      { role: 'user', content: 'Score this answer: Paris' },
    ],
    response_format: SCORE_FORMAT,
  })
  expect(result.judgeCalls).toEqual([
    {
      step: 'generateScore',
      model: 'gpt-test',
      status: 'success',
      source: 'live',
      usage: {
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        totalTokens: expect.any(Number),
      },
      durationMs: expect.any(Number),
      attemptCount: 1,
      modelCallCount: 1,
      liveRequestCount: 1,
    },
  ])
  expect(Number.isInteger(result.judgeCalls[0]?.durationMs)).toBe(true)
})

test('an OpenAI-compatible object reaches its endpoint with its key, headers and query', async () => {
  server = await startFakeOpenAI({ reply: { score: 1 } })
  const result = await scoreWith({
    model: 'llama3.1',
    baseURL: server.baseURL,
    apiKey: 'sk-object',
    headers: { 'x-team': 'evals' },
    query: { 'api-version': '2025-01-01' },
  }).run({ output: 'x' })
  expect(result.score).toBe(1)
  const [request] = server.requests
  expect(request?.headers.authorization).toBe('Bearer sk-object')
  expect(request?.headers['x-team']).toBe('evals')
  expect(request?.query).toEqual({ 'api-version': '2025-01-01' })
  expect(request?.body.model).toBe('llama3.1')
})

test('temperature and seed are sent when set, the step value winning over the judge object', async () => {
  server = await startFakeOpenAI({ reply: { score: 1 } })
  await scoreWith(
    { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', temperature: 0.7 },
    { temperature: 0, seed: 42 },
  ).run({ output: 'x' })
  expect(server.requests[0]?.body).toMatchObject({ temperature: 0, seed: 42 })
})

test('a reasoning-style endpoint that rejects any temperature works by default', async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      'temperature' in request.body
        ? fakeReply.status(400, {
            message: "Unsupported parameter: 'temperature' is not supported with this model.",
          })
        : { score: 1 },
  })
  const result = await scoreWith({ model: 'o4-mini', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(result.score).toBe(1)
  expect(server.requests).toHaveLength(1)
})

test('a 429 with Retry-After is retried after the wait, and the call counts both requests', async () => {
  server = await startFakeOpenAI({
    reply: [fakeReply.status(429, { retryAfter: 1, message: 'Slow down' }), { score: 1 }],
  })
  const started = performance.now()
  const result = await scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(performance.now() - started).toBeGreaterThanOrEqual(900)
  expect(result.score).toBe(1)
  expect(result.judgeCalls[0]).toMatchObject({
    attemptCount: 1,
    modelCallCount: 2,
    status: 'success',
  })
})

test('5xx failures are retried up to maxRetries, then fail naming the status and the request count', async () => {
  server = await startFakeOpenAI({
    reply: fakeReply.status(503, { message: 'Overloaded', headers: { 'retry-after-ms': '10' } }),
  })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', maxRetries: 1 }).run({
      output: 'x',
    }),
  )
  expect(server.requests).toHaveLength(2)
  const cause = rootCause(error) as JudgeRequestError
  expect(cause.code).toBe('RUBRICATE_JUDGE_REQUEST')
  expect(cause.status).toBe(503)
  expect(cause.message).toBe(
    linked(
      `[rubricate] The judge "gpt-test" at "${server.baseURL}" failed with HTTP 503 ("Overloaded") after 2 requests. The provider is rate limiting, overloaded or unreachable; try again later, lower judgeConcurrency, or raise maxRetries in the judge object.`,
      'judge-request',
    ),
  )
  expect((error as ScorerRunError).result?.judgeCalls).toEqual([
    expect.objectContaining({ status: 'failed', modelCallCount: 2, attemptCount: 1 }),
  ])
})

test('a 400 is not retried and fails with the provider message, wrapped in ScorerRunError', async () => {
  server = await startFakeOpenAI({
    reply: fakeReply.status(400, { message: "Invalid value for 'model': no such model family." }),
  })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({ output: 'x' }),
  )
  expect(server.requests).toHaveLength(1)
  const judgeMessage = `The judge "gpt-test" at "${server.baseURL}" rejected the request with HTTP 400: "Invalid value for 'model': no such model family.". This is not retried. Check the judge configuration (model, temperature, structuredOutput) against what the endpoint supports.`
  expect(error).toMatchObject({
    name: 'ScorerRunError',
    code: 'RUBRICATE_SCORER_RUN',
    failedStep: 'generateScore',
    completedSteps: [],
    message: linked(
      `[rubricate] Scorer "judge-test" failed in step "generateScore": ${judgeMessage}`,
      'scorer-run',
    ),
  })
  expect(error.cause).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    status: 400,
    message: linked(`[rubricate] ${judgeMessage}`, 'judge-request'),
  })
})

test('404 and 401 with a key say what to check', async () => {
  server = await startFakeOpenAI({
    reply: [
      fakeReply.status(404, { message: 'The model does not exist' }),
      fakeReply.status(401, { message: 'Incorrect API key provided' }),
    ],
  })
  const judge = { model: 'gpt-nope', baseURL: server.baseURL, apiKey: 'sk-wrong' }
  const notFound = rootCause(await rejectionOf(scoreWith(judge).run({ output: 'x' }))) as Error
  expect(notFound.message).toBe(
    linked(
      `[rubricate] The judge "gpt-nope" at "${server.baseURL}" rejected the request with HTTP 404: "The model does not exist". This is not retried. Check the model name and the baseURL of the judge.`,
      'judge-request',
    ),
  )
  const unauthorized = rootCause(await rejectionOf(scoreWith(judge).run({ output: 'x' }))) as Error
  expect(unauthorized.message).toBe(
    linked(
      `[rubricate] The judge "gpt-nope" at "${server.baseURL}" rejected the request with HTTP 401: "Incorrect API key provided". This is not retried. Check the API key (OPENAI_API_KEY, or apiKey in the judge object) and its permissions.`,
      'judge-request',
    ),
  )
  expect(server.requests).toHaveLength(2)
})

test('with no API key, a live judge call to api.openai.com is refused before any request, not retried', async () => {
  vi.stubEnv('OPENAI_API_KEY', undefined)
  vi.stubEnv('OPENAI_BASE_URL', undefined)
  const error = await rejectionOf(scoreWith('openai/gpt-test').run({ output: 'x' }))
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    message: linked(
      '[rubricate] The judge "gpt-test" was to be called live at "https://api.openai.com/v1" with no API key, so no request was sent (the provider can only answer 401). Set OPENAI_API_KEY, or give the key in the judge object: { model: "gpt-test", apiKey }; set OPENAI_BASE_URL (or baseURL in the judge object) when the judge is another OpenAI-compatible endpoint. Cassettes replay without a key; only recording needs one.',
      'judge-request',
    ),
  })
})

test('with no API key anywhere, a live 401 says that no key was set and that replay needs none', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.status(401, { message: 'Missing bearer' }) })
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
  const error = await rejectionOf(scoreWith('openai/gpt-test').run({ output: 'x' }))
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    message: linked(
      `[rubricate] The judge "gpt-test" at "${server.baseURL}" answered HTTP 401 because no API key was set. Set OPENAI_API_KEY, or give the key in the judge object: { model: "gpt-test", apiKey }. Cassettes replay without a key; only live calls need one.`,
      'judge-request',
    ),
  })
})

test('a connection that keeps failing is reported after the retries', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.drop() })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }).run({
      output: 'x',
    }),
  )
  expect((rootCause(error) as Error).message).toMatch(
    /^\[rubricate\] The judge "gpt-test" at "http:\/\/127\.0\.0\.1:\d+\/v1" failed with a connection error \(.+\) after 1 request\. /,
  )
  // The dropped connection was a request made, though no exchange completed.
  expect(error.result.judgeCalls[0]).toMatchObject({ status: 'failed', modelCallCount: 1 })
})

test('a refused connection is reported as one, with the base URL to check, not as rate limiting', async () => {
  // A port that was listening a moment ago and is closed now: the connection is refused.
  const closed = await startFakeOpenAI({ reply: { score: 1 } })
  const baseURL = closed.baseURL
  await closed.close()
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL, apiKey: 'k', maxRetries: 0 }).run({ output: 'x' }),
  )
  const message = (rootCause(error) as Error).message
  expect(message).toMatch(/failed with a connection error \(.*ECONNREFUSED.*\) after 1 request\. /)
  expect(message).toMatch(
    /The connection was refused: nothing listens at that address, so waiting will not help\. Check the base URL \(OPENAI_BASE_URL, or baseURL in the judge object\) and that the server runs there\.\nSee https:\/\/rubricate\.github\.io\/rubricate\/errors\/judge-request$/,
  )
  expect(message).not.toContain('rate limiting')
})

test('malformed JSON is fed back once and repaired on the second attempt', async () => {
  server = await startFakeOpenAI({ reply: ['The score is high!', { score: 0.5 }] })
  const result = await scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(result.score).toBe(0.5)
  expect(result.judgeCalls[0]).toMatchObject({ attemptCount: 2, modelCallCount: 2 })
  const repair = messagesOf(server.requests[1])
  expect(repair.slice(0, 3)).toEqual([
    { role: 'system', content: 'You grade answers.' },
    { role: 'user', content: 'Score this answer: x' },
    { role: 'assistant', content: 'The score is high!' },
  ])
  expect(repair[3]?.role).toBe('user')
  expect(repair[3]?.content).toMatch(
    /^Your previous reply could not be used:\nThe reply is not valid JSON: .+\n\nReply again with one JSON object and nothing else, fixing these problems\.$/,
  )
  expect(server.requests[1]?.body.response_format).toEqual(SCORE_FORMAT)
})

test('a huge unusable reply is cut to its first 16,000 characters when it is fed back for repair', async () => {
  const huge = `Let me think. ${'blah '.repeat(200_000)}`
  server = await startFakeOpenAI({ reply: [huge, { score: 0.5 }] })
  const result = await scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(result.score).toBe(0.5)
  const fedBack = messagesOf(server.requests[1])[2]?.content as string
  expect(fedBack).toBe(
    `${huge.slice(0, 16_000)}\n[... ${huge.length - 16_000} more characters cut]`,
  )
  expect(server.requests[1]?.bodyText.length).toBeLessThan(20_000)
})

test('JSON of the wrong shape is repaired with the validation error fed back', async () => {
  server = await startFakeOpenAI({ reply: [{ score: 'high' }, { score: 0.9 }] })
  const result = await scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({
    output: 'x',
  })
  expect(result.score).toBe(0.9)
  expect(messagesOf(server.requests[1])[3]?.content).toBe(
    'Your previous reply could not be used:\n- at "score": Invalid input: expected number, received string\n\nReply again with one JSON object and nothing else, fixing these problems.',
  )
})

test('malformed twice is RUBRICATE_JUDGE_OUTPUT with the raw text, never a score', async () => {
  server = await startFakeOpenAI({ reply: ['not json', 'still {not json'] })
  const error = await rejectionOf(
    scoreWith({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }).run({ output: 'x' }),
  )
  expect(error.name).toBe('ScorerRunError')
  expect(error.failedStep).toBe('generateScore')
  expect(error.cause).toMatchObject({
    name: 'JudgeOutputError',
    code: 'RUBRICATE_JUDGE_OUTPUT',
    rawText: 'still {not json',
  })
  expect(error.cause.message).toMatch(
    linkedPattern(
      /^\[rubricate\] The judge "gpt-test" replied with output that does not match the expected format, also after one repair attempt that fed the error back\. It is reported as an error, neither a pass nor a fail\.\nLast problem: The reply is not valid JSON: .+\nRaw reply: "still \{not json"\nTry a stronger judge model, or structuredOutput: "json_schema" if the endpoint supports it\.$/,
      'judge-output',
    ),
  )
  expect(error.result.judgeCalls).toEqual([
    expect.objectContaining({ status: 'failed', attemptCount: 2, modelCallCount: 2 }),
  ])
  expect(error.result.score).toBeUndefined()
})

test('an endpoint that rejects response_format gets the schema in the prompt instead, on every call', async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      request.body.response_format
        ? fakeReply.status(400, {
            message:
              "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          })
        : 'Sure! Here is my grade:\n```json\n{ "score": 0.25 }\n```\nLet me know if you need more.',
  })
  const scorer = scoreWith({ model: 'local-model', baseURL: server.baseURL, apiKey: 'k' })
  const first = await scorer.run({ output: 'x' })
  expect(first.score).toBe(0.25)
  expect(first.judgeCalls[0]).toMatchObject({ attemptCount: 1, modelCallCount: 2 })
  const prompted = server.requests[1]
  expect(prompted?.body.response_format).toBeUndefined()
  expect(messagesOf(prompted)[1]?.content).toBe(
    [
      'Score this answer: x',
      '',
      'Reply with one JSON object and nothing else, matching this JSON Schema:',
      '```json',
      JSON.stringify(SCORE_FORMAT.json_schema.schema, null, 2),
      '```',
    ].join('\n'),
  )
  // Not remembered: a second call makes the same two requests, so cassettes see one sequence.
  await scorer.run({ output: 'x' })
  expect(server.requests.map((request) => Boolean(request.body.response_format))).toEqual([
    true,
    false,
    true,
    false,
  ])
})

test('structuredOutput "prompt" and its alias jsonPromptInjection: true never send response_format', async () => {
  server = await startFakeOpenAI({ reply: 'My verdict: {"score": 1} (very good)' })
  const base = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  expect(
    (await scoreWith({ ...base, structuredOutput: 'prompt' }).run({ output: 'x' })).score,
  ).toBe(1)
  expect((await scoreWith(base, { jsonPromptInjection: true }).run({ output: 'x' })).score).toBe(1)
  expect(
    (await scoreWith(base, { jsonPromptInjection: 'system' }).run({ output: 'x' })).score,
  ).toBe(1)
  expect(server.requests.map((request) => request.body.response_format)).toEqual([
    undefined,
    undefined,
    undefined,
  ])
})

test('jsonPromptInjection "inline" means prompt mode, and false means json_schema with no fallback', async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      request.body.response_format
        ? fakeReply.status(400, { message: 'response_format json_schema is not supported' })
        : '{"score": 1}',
  })
  const base = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }
  expect(
    (await scoreWith(base, { jsonPromptInjection: 'inline' }).run({ output: 'x' })).score,
  ).toBe(1)
  const error = await rejectionOf(
    scoreWith(base, { jsonPromptInjection: false }).run({ output: 'x' }),
  )
  expect(rootCause(error)).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST' })
  expect(server.requests.map((request) => request.body.response_format?.type)).toEqual([
    undefined,
    'json_schema',
  ])
})

test('structuredOutput "json_schema" does not fall back: the rejection is the error', async () => {
  server = await startFakeOpenAI({
    reply: fakeReply.status(400, { message: 'response_format json_schema is not supported' }),
  })
  const error = await rejectionOf(
    scoreWith({
      model: 'gpt-test',
      baseURL: server.baseURL,
      apiKey: 'k',
      structuredOutput: 'json_schema',
    }).run({ output: 'x' }),
  )
  expect(server.requests).toHaveLength(1)
  expect((rootCause(error) as Error).message).toBe(
    linked(
      `[rubricate] The judge "gpt-test" at "${server.baseURL}" rejected the request with HTTP 400: "response_format json_schema is not supported". This is not retried. Check the judge configuration (model, temperature, structuredOutput) against what the endpoint supports.`,
      'judge-request',
    ),
  )
})

test('an unknown structuredOutput value or judge string is a usage error listing the choices', async () => {
  const badMode = await rejectionOf(
    scoreWith({ model: 'gpt-test', structuredOutput: 'xml' as never }).run({ output: 'x' }),
  )
  expect(rootCause(badMode)).toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] The judge object structuredOutput is "xml", which is not supported. Use one of "auto", "json_schema", "prompt".',
      'usage',
    ),
  })
  // An unknown provider fails when the scorer is built, before any run.
  expect(() => scoreWith('acme/claude-sonnet')).toThrow(
    '[rubricate] The judge "acme/claude-sonnet" names the provider "acme", which rubricate does not know. Use one of "openai", "anthropic", "google", "groq", "mistral", "deepseek", "xai", "openrouter", "together", "fireworks", "ollama", or give the endpoint itself: { model, baseURL, apiKey }, or an AI SDK model object.',
  )
  expect(() => scoreWith('claude-sonnet')).toThrow(
    '[rubricate] The judge "claude-sonnet" is not something rubricate can use. Give "<provider>/<model>" (e.g. "openai/gpt-4.1-mini"), Mastra\'s { id, url?, apiKey? }, an OpenAI-compatible endpoint { model, baseURL?, apiKey? }, an AI SDK model, or a JudgeModel { id, complete(request) }.',
  )
})
