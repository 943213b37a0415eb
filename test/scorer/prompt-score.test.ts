import { afterEach, expect, test } from 'vitest'
import { z } from 'zod'
import { createScorer } from '../../src'
import { rootCause } from '../../src/errors'
import { type FakeOpenAI, scriptedJudge, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { linked } from '../support/error-page'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

test('a prompt-object generateScore with outputSchema and calculateScore scores from the judge answer', async () => {
  server = await startFakeOpenAI({ reply: { score: 4, reason: 'Clear and correct.' } })
  const seen: unknown[] = []
  const scorer = createScorer({
    id: 'quality',
    description: 'Scores response quality',
    judge: {
      model: { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' },
      instructions: 'Return a score and concise reason.',
    },
  })
    .analyze(() => ({ words: 3 }))
    .generateScore({
      description: 'Score the response quality.',
      createPrompt: ({ run }) => `Score from 0 to 5: ${run.output}`,
      outputSchema: z.object({ score: z.number(), reason: z.string() }),
      calculateScore: ({ analyzeStepResult, results, run }) => {
        seen.push(analyzeStepResult, results.analyzeStepResult, run.output)
        return analyzeStepResult.score / 5
      },
    })
  const result = await scorer.run({ output: 'Paris is the capital of France.' })
  expect(result.score).toBe(0.8)
  expect(seen).toEqual([
    { score: 4, reason: 'Clear and correct.' },
    { words: 3 },
    'Paris is the capital of France.',
  ])
  // The schema sent is the step's, not the fixed { score } one.
  expect(server.requests[0]?.body.response_format).toEqual({
    type: 'json_schema',
    json_schema: {
      name: 'generateScore_result',
      schema: {
        type: 'object',
        properties: { score: { type: 'number' }, reason: { type: 'string' } },
        required: ['score', 'reason'],
        additionalProperties: false,
      },
      strict: true,
    },
  })
  expect(result.judgeCalls.map((call) => [call.step, call.status])).toEqual([
    ['generateScore', 'success'],
  ])
})

test('a prompt-object generateScore with neither still asks for exactly { score }', async () => {
  const judge = scriptedJudge([{ score: 0.5 }])
  const result = await createScorer({ id: 'plain', description: 'plain', judge: { model: judge } })
    .generateScore({ description: 'score', createPrompt: () => 'score it' })
    .run({ output: 'x' })
  expect(result.score).toBe(0.5)
  expect(judge.requests[0]).toMatchObject({ schemaName: 'score' })
  expect(judge.requests[0]?.schema).toMatchObject({
    properties: { score: { type: 'number' } },
    additionalProperties: false,
  })
})

test('calculateScore without an outputSchema receives the judge reply as text', async () => {
  const judge = scriptedJudge(['Seven out of ten'])
  const result = await createScorer({ id: 'text', description: 'text', judge: { model: judge } })
    .generateScore({
      description: 'score',
      createPrompt: () => 'score it in words',
      calculateScore: ({ analyzeStepResult }) => (analyzeStepResult.startsWith('Seven') ? 0.7 : 0),
    })
    .run({ output: 'x' })
  expect(result.score).toBe(0.7)
  expect(judge.requests[0]).toEqual({ prompt: 'score it in words' })
})

test('calculateScore may be async, and a non-number it returns fails the step', async () => {
  const judge = scriptedJudge([{ grade: 'A' }, { grade: 'A' }])
  const base = createScorer({ id: 'grade', description: 'grade', judge: { model: judge } })
  const async = await base
    .generateScore({
      description: 'score',
      createPrompt: () => 'grade it',
      outputSchema: z.object({ grade: z.string() }),
      calculateScore: async ({ analyzeStepResult }) => (analyzeStepResult.grade === 'A' ? 1 : 0),
    })
    .run({ output: 'x' })
  expect(async.score).toBe(1)
  const error = await rejectionOf(
    base
      .generateScore({
        description: 'score',
        createPrompt: () => 'grade it',
        outputSchema: z.object({ grade: z.string() }),
        calculateScore: (({ analyzeStepResult }: { analyzeStepResult: { grade: string } }) =>
          analyzeStepResult.grade) as never,
      })
      .run({ output: 'x' }),
  )
  expect(error).toMatchObject({ code: 'RUBRICATE_SCORER_RUN', failedStep: 'generateScore' })
  expect((rootCause(error) as Error).message).toBe(
    linked(
      '[rubricate] Scorer "grade" produced the score "A" in generateScore, which is not a finite number. Return a number.',
      'usage',
    ),
  )
})

test('an outputSchema without calculateScore, or a calculateScore that is not a function, is a usage error at chain time', () => {
  const base = createScorer({ id: 'bad', description: 'bad' })
  expect(() =>
    base.generateScore({
      description: 'score',
      createPrompt: () => 'x',
      outputSchema: z.object({ score: z.number() }),
    } as never),
  ).toThrow(
    '[rubricate] Scorer "bad" has a prompt-object generateScore step with an outputSchema but no calculateScore, so nothing says which part of the judge\'s answer is the score. Add calculateScore: ({ analyzeStepResult }) => number, or drop outputSchema to have the judge answer { "score": number }.',
  )
  expect(() =>
    base.generateScore({
      description: 'score',
      createPrompt: () => 'x',
      calculateScore: 1,
    } as never),
  ).toThrow(/calculateScore of its generateScore step/)
})

test("jsonPromptInjection 'system' puts the schema in the system message; 'inline' in the user message", async () => {
  server = await startFakeOpenAI({ reply: { label: 'ok' } })
  const endpoint = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  const labeller = (jsonPromptInjection: 'system' | 'inline') =>
    createScorer({
      id: 'label',
      description: 'label',
      judge: { model: endpoint, instructions: 'You label replies.', jsonPromptInjection },
    })
      .analyze({
        description: 'label it',
        createPrompt: () => 'Label this reply.',
        outputSchema: z.object({ label: z.string() }),
      })
      .generateScore(({ results }) => (results.analyzeStepResult.label === 'ok' ? 1 : 0))
  expect((await labeller('system').run({ output: 'x' })).score).toBe(1)
  expect((await labeller('inline').run({ output: 'x' })).score).toBe(1)
  const [system, inline] = server.requests.map((request) => request.body)
  expect(system.response_format).toBeUndefined()
  expect(system.messages[0].role).toBe('system')
  expect(system.messages[0].content).toMatch(
    /^You label replies\.\n\nReply with one JSON object and nothing else, matching this JSON Schema:\n```json\n\{/,
  )
  expect(system.messages[1]).toEqual({ role: 'user', content: 'Label this reply.' })
  expect(inline.messages[0]).toEqual({ role: 'system', content: 'You label replies.' })
  expect(inline.messages[1].content).toMatch(/^Label this reply\.\n\nReply with one JSON object/)
})
