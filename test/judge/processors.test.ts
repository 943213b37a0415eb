import { afterEach, expect, test } from 'vitest'
import { createScorer, type JudgeProcessor, StreamErrorRetryProcessor } from '../../src'
import { rootCause } from '../../src/errors'
import {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  fakeReply,
  startFakeOpenAI,
} from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function endpoint(reply: FakeOpenAIOptions['reply']) {
  server = await startFakeOpenAI({ reply })
  return { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
}

test("Mastra's documented retry example: a failed request is retried by the processor only, never by the SDK as well", async () => {
  const myModel = await endpoint([
    fakeReply.status(503),
    fakeReply.status(503),
    { score: 0.8 },
    'Fine.',
  ])
  const isTransientNetworkError = (error: unknown) =>
    error instanceof Error && /ECONNRESET|ETIMEDOUT|socket hang up/i.test(error.message)
  const retryProcessor = new StreamErrorRetryProcessor({
    maxRetries: 2,
    maxRetryAfterMs: 30_000,
    delayMs: ({ retryCount }) => Math.min(1 * 2 ** retryCount, 30_000),
    matchers: [isTransientNetworkError],
    retryUnknownErrors: false,
  })
  const responseQuality = createScorer({
    id: 'response-quality',
    description: 'Scores response quality',
    judge: {
      model: myModel,
      instructions: 'Return a score and concise reason.',
      errorProcessors: [retryProcessor],
      maxProcessorRetries: 2,
    },
  })
    .generateScore({
      description: 'Score the response quality.',
      createPrompt: ({ run }) => `Score: ${run.output}`,
    })
    .generateReason({ description: 'Explain the score.', createPrompt: () => 'Explain the score.' })
  const result = await responseQuality.run({ output: 'Paris' })
  expect(result).toMatchObject({ score: 0.8, reason: 'Fine.' })
  // At most three attempts for the failing request: the first and two processor retries.
  expect(server?.requests).toHaveLength(4)
  expect(result.judgeCalls.map((c) => [c.step, c.modelCallCount])).toEqual([
    ['generateScore', 3],
    ['generateReason', 1],
  ])
})

test('a retry in generateReason does not run generateScore again; auth and bad requests fail at once', async () => {
  const model = await endpoint([{ score: 1 }, fakeReply.status(500), 'Because.'])
  const retry = new StreamErrorRetryProcessor({ maxRetries: 1, delayMs: () => 0 })
  const scorer = createScorer({
    id: 'r',
    description: 'r',
    judge: { model, errorProcessors: [retry] },
  })
    .generateScore({ description: 's', createPrompt: () => 'score' })
    .generateReason({ description: 'why', createPrompt: () => 'why' })
  expect((await scorer.run({ output: 'x' })).reason).toBe('Because.')
  expect(server?.requests.map((r) => r.body.messages.at(-1).content)).toEqual([
    'score',
    'why',
    'why',
  ])
  for (const status of [400, 401]) {
    server?.setReply(fakeReply.status(status))
    server?.clearRequests()
    const error = await rejectionOf(scorer.run({ output: 'x' }))
    expect(rootCause(error)).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST', status })
    expect(server?.requests).toHaveLength(1)
  }
})

test('without maxProcessorRetries the budget is 10; a step list replaces the scorer list', async () => {
  const model = await endpoint(fakeReply.status(503))
  const always: JudgeProcessor = { processAPIError: () => ({ retry: true }) }
  const base = createScorer({
    id: 'b',
    description: 'b',
    judge: { model, errorProcessors: [always] },
  })
  await rejectionOf(
    base.generateScore({ description: 's', createPrompt: () => 'score' }).run({ output: 'x' }),
  )
  expect(server?.requests).toHaveLength(11)
  server?.clearRequests()
  await rejectionOf(
    base
      .generateScore({
        description: 's',
        createPrompt: () => 'score',
        judge: { errorProcessors: [] },
      })
      .run({ output: 'x' }),
  )
  // No processors on the step: the SDK's own two retries apply again.
  expect(server?.requests).toHaveLength(3)
})

test('input processors change the request before it is sent; output processors the text before it is parsed', async () => {
  const model = await endpoint('SCORE=0.25')
  const redact: JudgeProcessor = {
    processInput: ({ messages }) =>
      messages.map((m) => ({ ...m, content: m.content.replace(/\S+@\S+/g, '[email]') })),
  }
  const parse: JudgeProcessor = {
    processOutputResult: ({ text }) => JSON.stringify({ score: Number(text.split('=')[1]) }),
  }
  const result = await createScorer({
    id: 'p',
    description: 'p',
    judge: {
      model,
      instructions: 'Grade mail from ops@example.com.',
      inputProcessors: [redact],
      outputProcessors: [parse],
    },
  })
    .generateScore({ description: 's', createPrompt: ({ run }) => `Score mail to ${run.output}` })
    .run({ output: 'ann@example.com' })
  expect(result.score).toBe(0.25)
  expect(server?.requests[0]?.body.messages).toEqual([
    { role: 'system', content: 'Grade mail from [email]' },
    { role: 'user', content: 'Score mail to [email]' },
  ])
  const refusing: JudgeProcessor = { processInput: ({ abort }) => abort('PII found') }
  const error = await rejectionOf(
    createScorer({ id: 'q', description: 'q', judge: { model, inputProcessors: [refusing] } })
      .generateScore({ description: 's', createPrompt: () => 'x' })
      .run({ output: 'x' }),
  )
  expect((rootCause(error) as Error).message).toBe(
    linked(
      '[rubricate] A judge processor stopped the judge call: PII found. Change the input or output it refused, or the processor.',
      'judge-request',
    ),
  )
  expect(server?.requests).toHaveLength(1)
})
