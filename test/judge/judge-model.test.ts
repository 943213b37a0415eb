import { expect, test } from 'vitest'
import type { JudgeModel, JudgeRequest } from '../../src'
import { cached } from '../../src/cassettes'
import { rootCause } from '../../src/errors'
import { linked } from '../support/error-page'
import { rejectionOf, scoreWith } from './helpers'

function recordingModel(reply: (request: JudgeRequest) => string): JudgeModel & {
  requests: JudgeRequest[]
} {
  const requests: JudgeRequest[] = []
  return {
    id: 'my-provider/grader',
    requests,
    async complete(request) {
      requests.push(request)
      return { text: reply(request), usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } }
    },
  }
}

test('a custom JudgeModel gets the system message, the prompt with the schema, and the schema itself', async () => {
  const model = recordingModel(() => '{"score": 0.5}')
  const result = await scoreWith(model).run({ output: 'x' })
  expect(result.score).toBe(0.5)
  const schema = {
    type: 'object',
    properties: { score: { type: 'number' } },
    required: ['score'],
    additionalProperties: false,
  }
  expect(model.requests).toEqual([
    {
      system: 'You grade answers.',
      prompt: [
        'Score this answer: x',
        '',
        'Reply with one JSON object and nothing else, matching this JSON Schema:',
        '```json',
        JSON.stringify(schema, null, 2),
        '```',
      ].join('\n'),
      schema,
      schemaName: 'score',
    },
  ])
  expect(result.judgeCalls).toEqual([
    {
      step: 'generateScore',
      model: 'my-provider/grader',
      status: 'success',
      source: 'live',
      usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
      durationMs: expect.any(Number),
      attemptCount: 1,
      modelCallCount: 1,
      liveRequestCount: 1,
    },
  ])
})

test('a custom JudgeModel gets temperature and seed only when they are set', async () => {
  const model = recordingModel(() => '{"score": 1}')
  await scoreWith(model, { temperature: 0.2, seed: 7 }).run({ output: 'x' })
  expect(model.requests[0]).toMatchObject({ temperature: 0.2, seed: 7 })
})

test('a custom JudgeModel repairs an invalid reply through a follow-up in the prompt', async () => {
  let calls = 0
  const model = recordingModel(() => (calls++ === 0 ? 'I think 0.3' : '{"score": 0.3}'))
  const result = await scoreWith(model).run({ output: 'x' })
  expect(result.score).toBe(0.3)
  expect(result.judgeCalls[0]).toMatchObject({
    attemptCount: 2,
    modelCallCount: 2,
    usage: { inputTokens: 20, outputTokens: 4, totalTokens: 24 },
  })
  expect(model.requests[1]?.prompt).toContain(
    '\n\nYour previous reply was:\nI think 0.3\n\nYour previous reply could not be used:\nThe reply is not valid JSON: ',
  )
})

test('a model already wrapped with cached() is not wrapped again', async () => {
  const model = recordingModel(() => '{"score": 1}')
  const wrapped = cached(model)
  expect(cached(wrapped)).toBe(wrapped)
  const result = await scoreWith(wrapped).run({ output: 'x' })
  expect(model.requests).toHaveLength(1)
  // A second wrapper would report the one call twice.
  expect(result.judgeCalls[0]?.modelCallCount).toBe(1)
})

test('a custom JudgeModel that throws fails the step with its message', async () => {
  const model: JudgeModel = {
    id: 'flaky',
    async complete() {
      throw new Error('quota exceeded for project "evals"')
    },
  }
  const error = await rejectionOf(scoreWith(model).run({ output: 'x' }))
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    message: linked(
      '[rubricate] The judge model "flaky" failed: quota exceeded for project "evals". Fix the JudgeModel\'s complete() function, or check the provider it calls.',
      'judge-request',
    ),
  })
  expect(error.result.judgeCalls[0]).toMatchObject({ status: 'failed', model: 'flaky' })
})
