// Mastra's documented code examples for createRubricScorer and createScorer, each run against the
// fake server. Ported where the import path or the agent API must change: `@mastra/evals` and
// `@mastra/core/evals` become `rubricate`; `agent.stream(q, { isTaskComplete })` becomes
// `runUntilComplete` around an AI SDK `generateText` agent; `run.inputData` (a slip in Mastra's
// page: the run has no such field) becomes `run.input`; `run.output[0]?.content.length` becomes
// `outputText(run.output[0]).length` (in Mastra 1.71 a message's content is `{ format: 2, parts }`,
// which has no length, so the page's form reads `undefined`); `new Mastra({ scorers })`
// registration is `toMastraScorer` (test/scorer/to-mastra-scorer.test.ts).
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createRubricScorer, createScorer, outputText, runUntilComplete } from '../../src'
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from '../../src/testing'
import { judgeBy, userMessage } from '../support/rubric-judge'

let server: FakeOpenAI

const isJudge = (request: FakeRequest) =>
  request.body?.response_format?.json_schema?.name === 'rubric_verdicts'

beforeEach(async () => {
  server = await startFakeOpenAI()
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
  vi.stubEnv('OPENAI_API_KEY', 'sk-test')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await server.close()
})

// The agent the loop drives: a real AI SDK call to the fake server.
function agentModel() {
  return createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).chat('gpt-agent')
}

test('createRubricScorer with isTaskComplete: the agent iterates until the rubric is met (ported to runUntilComplete)', async () => {
  let agentCalls = 0
  server.setReply((request) => {
    if (isJudge(request)) {
      const output = userMessage(request)
      return judgeBy((criterion) =>
        criterion.includes('analysis')
          ? output.includes('Analysis')
          : output.includes('Recommendations'),
      )(request)
    }
    agentCalls++
    return agentCalls === 1
      ? 'Analysis: AI helps tutors.'
      : 'Analysis: AI helps tutors.\nRecommendations: pilot it.'
  })
  const rubricScorer = createRubricScorer({
    model: 'openai/gpt-5-mini',
    criteria: [
      { description: 'The response includes an analysis section' },
      { description: 'The response includes concrete recommendations' },
    ],
  })
  const result = await runUntilComplete(
    async ({ input, feedback }) =>
      (
        await generateText({
          model: agentModel(),
          prompt: feedback ? `${input}\n\n${feedback}` : input,
        })
      ).text,
    { scorers: [rubricScorer], strategy: 'all', maxSteps: 10, input: 'Research AI in education' },
  )
  expect(result.complete).toBe(true)
  expect(result.iterations.map((i) => i.check.complete)).toEqual([false, true])
  expect(result.iterations[0]?.check.feedback).toContain('concrete recommendations')
})

test('a string rubric: list markers are stripped and every line is a required criterion', async () => {
  server.setReply(judgeBy((criterion) => criterion.startsWith('All tests pass')))
  const rubricScorer = createRubricScorer({
    model: 'openai/gpt-5-mini',
    criteria: `- All tests pass in the test suite
- The function is named find_duplicates and accepts a single list argument`,
  })
  const result = await rubricScorer.run({
    input: 'Write find_duplicates',
    output: 'def dupes(xs): ...',
  })
  expect(result.verdicts.map((v) => [v.criterion, v.required, v.satisfied])).toEqual([
    ['All tests pass in the test suite', true, true],
    ['The function is named find_duplicates and accepts a single list argument', true, false],
  ])
  expect(result.score).toBe(0)
})

test('optional criteria are judged and reported without gating completion', async () => {
  server.setReply(judgeBy((criterion) => !criterion.includes('citations')))
  const rubricScorer = createRubricScorer({
    model: 'openai/gpt-5-mini',
    criteria: [
      { description: 'Includes an analysis section', required: true },
      { description: 'Includes citations', required: false },
    ],
  })
  const result = await rubricScorer.run({ output: 'Analysis: fine.' })
  expect(result.score).toBe(1)
  expect(result.reason).toContain('[optional] Includes citations')
})

test('a dynamic rubric per run from requestContext; none resolved scores 1 without gating', async () => {
  server.setReply(judgeBy(() => true))
  const rubricScorer = createRubricScorer({ model: 'openai/gpt-5-mini' })
  const result = await runUntilComplete(async () => 'def find_duplicates(xs): ...', {
    scorers: [rubricScorer],
    input: 'Write find_duplicates',
    requestContext: { rubric: '- All tests pass\n- The function is named find_duplicates' },
  })
  expect(result.complete).toBe(true)
  expect(result.iterations[0]?.check.scorers[0]?.result?.verdicts).toHaveLength(2)
  const none = await rubricScorer.run({ output: 'anything' })
  expect(none.score).toBe(1)
  expect(server.requests.filter(isJudge)).toHaveLength(1)
})

test("createScorer's agent-type example: input and output typed as agent messages", async () => {
  const agentScorer = createScorer({
    id: 'agent-response-quality',
    description: 'Evaluates agent responses',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const userMessage = run.input?.inputMessages[0]?.content
      return { userMessage }
    })
    .generateScore(({ run }) => {
      const response = outputText(run.output[0])
      return response.length > 10 ? 1.0 : 0.5
    })
  const input = {
    inputMessages: [{ role: 'user' as const, content: 'hello world' }],
    rememberedMessages: [],
    systemMessages: [],
    taggedSystemMessages: {},
  }
  const long = await agentScorer.run({
    input,
    output: [{ role: 'assistant', content: 'A long enough reply' }],
  })
  expect(long).toMatchObject({ score: 1, preprocessStepResult: { userMessage: 'hello world' } })
  const short = await agentScorer.run({ input, output: [{ role: 'assistant', content: 'Hi' }] })
  expect(short.score).toBe(0.5)
})

test("createScorer's custom-types example scores from the output's confidence", async () => {
  type CustomInput = { query: string; context: string[] }
  type CustomOutput = { answer: string; confidence: number }
  const customScorer = createScorer<CustomInput, CustomOutput>({
    id: 'custom-scorer',
    description: 'Evaluates custom data',
  }).generateScore(({ run }) => run.output.confidence)
  const result = await customScorer.run({
    input: { query: 'q', context: [] },
    output: { answer: 'a', confidence: 0.7 },
  })
  expect(result.score).toBe(0.7)
})

test("createScorer's trace example: short agent responses score 1, long ones 0", async () => {
  const agentTraceScorer = createScorer({
    id: 'agent-trace-length',
    description: 'Evaluates agent response length',
    type: 'agent',
  }).generateScore(({ run }) => {
    const agentResponse = outputText(run.output[0])
    return agentResponse.length > 50 ? 0 : 1
  })
  expect(
    (await agentTraceScorer.run({ output: [{ role: 'assistant', content: 'Short.' }] })).score,
  ).toBe(1)
  expect(
    (await agentTraceScorer.run({ output: [{ role: 'assistant', content: 'x'.repeat(51) }] }))
      .score,
  ).toBe(0)
})

test("createScorer's prompt-object generateScore and generateReason steps (the retry example's scorer; its processor in test/judge/processors.test.ts)", async () => {
  server.setReply((request) =>
    request.body.response_format ? { score: 0.9 } : 'Concise and correct.',
  )
  const responseQuality = createScorer({
    id: 'response-quality',
    description: 'Scores response quality',
    judge: { model: 'openai/gpt-5-mini', instructions: 'Return a score and concise reason.' },
  })
    .generateScore({
      description: 'Score the response quality.',
      createPrompt: ({ run }) => `Score: ${run.output}`,
    })
    .generateReason({
      description: 'Explain the score.',
      createPrompt: () => 'Explain the score.',
    })
  const result = await responseQuality.run({ output: 'Paris' })
  expect(result).toMatchObject({
    score: 0.9,
    reason: 'Concise and correct.',
    generateScorePrompt: 'Score: Paris',
  })
  expect(server.requests.map((r) => r.body.messages[0].content)).toEqual([
    'Return a score and concise reason.',
    'Return a score and concise reason.',
  ])
})
