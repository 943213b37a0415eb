import { expect, test } from 'vitest'
import { z } from 'zod'
import { createScorer, filterRun, isNotScorable, notScorable } from '../../src'
import { rootCause } from '../../src/errors'
import { scriptedJudge } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { linked } from '../support/error-page'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

test('a function-only scorer returns the run spread back with score, reason and step results', async () => {
  const scorer = createScorer({ id: 'length', description: 'Counts words' })
    .preprocess(({ run }) => String(run.output).split(' '))
    .analyze(({ results }) => ({ words: results.preprocessStepResult.length }))
    .generateScore(({ results }) => (results.analyzeStepResult.words >= 3 ? 1 : 0))
    .generateReason(
      ({ results, score }) => `${results.analyzeStepResult.words} words, score ${score}`,
    )
  const result = await scorer.run({ input: 'Say hi', output: 'hi there friend', groundTruth: 'hi' })
  expect(result).toEqual({
    input: 'Say hi',
    output: 'hi there friend',
    groundTruth: 'hi',
    runId: expect.stringMatching(UUID),
    preprocessStepResult: ['hi', 'there', 'friend'],
    analyzeStepResult: { words: 3 },
    score: 1,
    reason: '3 words, score 1',
    judgeCalls: [],
  })
  expect(Object.keys(result)).toEqual(
    expect.arrayContaining(['score', 'reason', 'analyzeStepResult']),
  )
  expect(result).not.toHaveProperty('preprocessPrompt')
})

test('the runId given is kept, and steps may be async', async () => {
  const result = await createScorer({ id: 'async', description: 'async steps' })
    .analyze(async () => 'done')
    .generateScore(async ({ results }) => (results.analyzeStepResult === 'done' ? 1 : 0))
    .run({ output: 'x', runId: 'run-7' })
  expect(result).toMatchObject({ runId: 'run-7', score: 1, analyzeStepResult: 'done' })
})

test('steps run in the order they were chained, each seeing what came before', async () => {
  const seen: string[] = []
  await createScorer({ id: 'order', description: 'order' })
    .generateScore(({ results }) => {
      seen.push(`score after analyze=${String(results.analyzeStepResult)}`)
      return 1
    })
    .analyze(() => {
      seen.push('analyze')
      return 'a'
    })
    .run({ output: 'x' })
  expect(seen).toEqual(['score after analyze=undefined', 'analyze'])
})

test('the builder is immutable: chaining returns a new scorer and leaves the old one as it was', async () => {
  const base = createScorer({ id: 'base', description: 'base' })
  const scored = base.generateScore(() => 0.5)
  expect(scored).not.toBe(base)
  expect((await scored.run({ output: 'x' })).score).toBe(0.5)
  await expect(base.run({ output: 'x' })).rejects.toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] Scorer "base" has no generateScore step, so it cannot produce a score. Chain .generateScore(...) before calling .run().',
      'usage',
    ),
  })
})

test('name defaults to the id, and config exposes the judge as Mastra does', () => {
  const judge = { model: 'openai/gpt-test', instructions: 'Grade.' }
  const scorer = createScorer({ id: 'tone', description: 'Tone', judge })
  expect(scorer).toMatchObject({ id: 'tone', name: 'tone', description: 'Tone' })
  expect(scorer.config).toEqual({
    id: 'tone',
    name: 'tone',
    description: 'Tone',
    judge,
    type: undefined,
  })
  expect(() => createScorer({ id: '', description: 'x' })).toThrowError(
    '[rubricate] createScorer() needs an "id" (a short, stable name such as "tone"). Add { id } to its options.',
  )
})

test('prompt-object steps call the judge: parsed object, score, text, prompts and judge calls', async () => {
  const judge = scriptedJudge([
    { facts: ['Paris is the capital'] },
    { score: 0.8 },
    'The answer states one correct fact.',
  ])
  const scorer = createScorer({
    id: 'facts',
    description: 'Factual accuracy',
    judge: { model: judge, instructions: 'You check facts.' },
  })
    .analyze({
      description: 'List the facts',
      createPrompt: async ({ run }) => `List the facts in: ${run.output}`,
      outputSchema: z.object({ facts: z.array(z.string()) }),
    })
    .generateScore({
      description: 'Score them',
      createPrompt: ({ results }) =>
        `Score these facts: ${results.analyzeStepResult.facts.join('; ')}`,
    })
    .generateReason({
      description: 'Explain',
      createPrompt: ({ score }) => `Explain the score ${score}.`,
    })
  const result = await scorer.run({ output: 'Paris is the capital of France.' })
  expect(result).toMatchObject({
    analyzeStepResult: { facts: ['Paris is the capital'] },
    score: 0.8,
    reason: 'The answer states one correct fact.',
    analyzePrompt: 'List the facts in: Paris is the capital of France.',
    generateScorePrompt: 'Score these facts: Paris is the capital',
    generateReasonPrompt: 'Explain the score 0.8.',
  })
  expect(
    result.judgeCalls.map((call) => [call.step, call.status, call.model, call.attemptCount]),
  ).toEqual([
    ['analyze', 'success', 'scripted-judge', 1],
    ['generateScore', 'success', 'scripted-judge', 1],
    ['generateReason', 'success', 'scripted-judge', 1],
  ])
  expect(judge.requests.map((request) => request.system)).toEqual([
    'You check facts.',
    'You check facts.',
    'You check facts.',
  ])
  // The reason step asks for text: no schema.
  expect(judge.requests[2]).toEqual({
    system: 'You check facts.',
    prompt: 'Explain the score 0.8.',
  })
  expect(JSON.parse(JSON.stringify(result))).toEqual({ ...result })
})

test('a step-level judge overrides the scorer judge field by field', async () => {
  const scorerJudge = scriptedJudge(() => ({ score: 1 }), { id: 'scorer-judge' })
  const stepJudge = scriptedJudge(() => ({ label: 'ok' }), { id: 'step-judge' })
  const result = await createScorer({
    id: 'override',
    description: 'override',
    judge: { model: scorerJudge, instructions: 'Scorer instructions.', seed: 3 },
  })
    .analyze({
      description: 'Own model, inherited instructions and seed',
      createPrompt: () => 'label it',
      outputSchema: z.object({ label: z.string() }),
      judge: { model: stepJudge },
    })
    .generateScore({
      description: 'Own instructions, inherited model',
      createPrompt: () => 'score it',
      judge: { instructions: 'Step instructions.' },
    })
    .run({ output: 'x' })
  expect(result.judgeCalls.map((call) => call.model)).toEqual(['step-judge', 'scorer-judge'])
  expect(stepJudge.requests[0]).toMatchObject({ system: 'Scorer instructions.', seed: 3 })
  expect(scorerJudge.requests[0]).toMatchObject({ system: 'Step instructions.', seed: 3 })
})

test('notScorable from preprocess stops the pipeline: no judge call, no score key', async () => {
  const judge = scriptedJudge([])
  const result = await createScorer({ id: 'ns', description: 'ns', judge: { model: judge } })
    .preprocess(({ run }) =>
      run.output ? run.output : notScorable('The agent produced no output.'),
    )
    .generateScore({ description: 'never', createPrompt: () => 'never' })
    .run({ output: '' })
  expect(result.notScorable).toEqual({
    step: 'preprocess',
    reason: 'The agent produced no output.',
  })
  expect(result).not.toHaveProperty('score')
  expect(judge.requests).toHaveLength(0)
  expect(isNotScorable(notScorable())).toBe(true)
  expect(isNotScorable({ reason: 'x' })).toBe(false)
})

test('notScorable from analyze keeps the preprocess result', async () => {
  const result = await createScorer({ id: 'ns2', description: 'ns2' })
    .preprocess(() => 'prepared')
    .analyze(() => notScorable())
    .generateScore(() => 1)
    .run({ output: 'x' })
  expect(result).toMatchObject({
    preprocessStepResult: 'prepared',
    notScorable: { step: 'analyze' },
  })
  expect(result).not.toHaveProperty('score')
})

test('a throwing step rejects with ScorerRunError holding the completed steps and partial result', async () => {
  const boom = new Error('division by zero')
  const error = await rejectionOf(
    createScorer({ id: 'fails', description: 'fails' })
      .analyze(() => ({ ratio: 2 }))
      .generateScore(() => {
        throw boom
      })
      .run({ output: 'x', runId: 'r1' }),
  )
  expect(error).toMatchObject({
    name: 'ScorerRunError',
    code: 'RUBRICATE_SCORER_RUN',
    message: linked(
      '[rubricate] Scorer "fails" failed in step "generateScore": division by zero',
      'scorer-run',
    ),
    failedStep: 'generateScore',
    completedSteps: ['analyze'],
    result: { output: 'x', runId: 'r1', analyzeStepResult: { ratio: 2 }, judgeCalls: [] },
  })
  expect(error.cause).toBe(boom)
  expect(rootCause(error)).toBe(error)
})

test('a failure in the first step leaves no partial result; a failed reason keeps the score', async () => {
  const first = await rejectionOf(
    createScorer({ id: 'first', description: 'first' })
      .preprocess(() => {
        throw new Error('bad input')
      })
      .generateScore(() => 1)
      .run({ output: 'x' }),
  )
  expect(first).toMatchObject({ failedStep: 'preprocess', completedSteps: [], result: undefined })
  const reason = await rejectionOf(
    createScorer({ id: 'reason', description: 'reason' })
      .generateScore(() => 0)
      .generateReason(() => {
        throw new Error('no words')
      })
      .run({ output: 'x' }),
  )
  expect(reason).toMatchObject({
    failedStep: 'generateReason',
    completedSteps: ['generateScore'],
    result: { score: 0 },
  })
})

test('a score that is not a finite number fails the step with a usage error', async () => {
  const error = await rejectionOf(
    createScorer({ id: 'nan', description: 'nan' })
      .generateScore(() => Number.NaN)
      .run({ output: 'x' }),
  )
  expect(error.failedStep).toBe('generateScore')
  expect(rootCause(error)).toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] Scorer "nan" produced the score NaN in generateScore, which is not a finite number. Return a number.',
      'usage',
    ),
  })
})

test('a judge failure inside a step is the cause, and failed and successful judge calls are kept', async () => {
  const judge = scriptedJudge([{ label: 'fine' }, 'no json here', 'still none'])
  const error = await rejectionOf(
    createScorer({ id: 'judged', description: 'judged', judge: { model: judge } })
      .analyze({
        description: 'label',
        createPrompt: () => 'label it',
        outputSchema: z.object({ label: z.string() }),
      })
      .generateScore({ description: 'score', createPrompt: () => 'score it' })
      .run({ output: 'x' }),
  )
  expect(error).toMatchObject({ failedStep: 'generateScore', completedSteps: ['analyze'] })
  expect(rootCause(error)).toMatchObject({ code: 'RUBRICATE_JUDGE_OUTPUT', rawText: 'still none' })
  expect(error.result).toMatchObject({
    analyzeStepResult: { label: 'fine' },
    analyzePrompt: 'label it',
    generateScorePrompt: 'score it',
  })
  expect(
    error.result.judgeCalls.map((call: any) => [call.step, call.status, call.attemptCount]),
  ).toEqual([
    ['analyze', 'success', 1],
    ['generateScore', 'failed', 2],
  ])
})

test('prepareRun transforms the run before any step, and may be async', async () => {
  const result = await createScorer({
    id: 'prepared',
    description: 'prepared',
    prepareRun: async (run) => ({ ...run, output: String(run.output).toUpperCase() }),
  })
    .generateScore(({ run }) => (run.output === 'LOUD' ? 1 : 0))
    .run({ output: 'loud' })
  expect(result).toMatchObject({ output: 'LOUD', score: 1 })
})

test('filterRun keeps the last messages and drops the context and ground truth', async () => {
  const seen: unknown[] = []
  const scorer = createScorer({
    id: 'filtered',
    description: 'filtered',
    prepareRun: filterRun({
      maxInputMessages: 2,
      maxOutputMessages: 1,
      dropRequestContext: true,
      dropGroundTruth: true,
    }),
  }).generateScore(({ run }) => {
    seen.push(run)
    return 1
  })
  const message = (n: number) => ({ role: 'user' as const, content: `m${n}` })
  await scorer.run({
    input: {
      inputMessages: [message(1), message(2), message(3)],
      rememberedMessages: [message(0)],
    },
    output: [message(4), message(5)],
    requestContext: { user: 'u1' },
    groundTruth: 'expected',
  })
  await scorer.run({ input: [message(1), message(2), message(3)], output: 'text' })
  expect(seen[0]).toEqual({
    input: { inputMessages: [message(2), message(3)], rememberedMessages: [message(0)] },
    output: [message(5)],
    runId: expect.any(String),
  })
  expect(seen[1]).toMatchObject({ input: [message(2), message(3)], output: 'text' })
})

test('type "agent" only types the run: nothing is checked at run time', async () => {
  const scorer = createScorer({ id: 'agent', description: 'agent', type: 'agent' }).generateScore(
    ({ run }) => run.output.length,
  )
  expect(scorer.type).toBe('agent')
  const result = await scorer.run({
    input: {
      inputMessages: [],
      rememberedMessages: [],
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output: [{ role: 'assistant', content: 'hi' }],
  })
  expect(result.score).toBe(1)
  expect((await scorer.run({ output: 'not messages' as never })).score).toBe(12)
})

test('a step that is neither a function nor a prompt object is a usage error at chain time', () => {
  expect(() =>
    createScorer({ id: 'bad', description: 'bad' }).analyze('oops' as never),
  ).toThrowError(
    '[rubricate] Scorer "bad" got "oops" as its analyze step. Give a function, or a prompt object { description, createPrompt }.',
  )
  expect(() =>
    createScorer({ id: 'twice', description: 'twice' })
      .generateScore(() => 1)
      .generateScore(() => 0),
  ).toThrowError(
    '[rubricate] Scorer "twice" already has a generateScore step. Each step can be set once; build a new scorer from createScorer() instead.',
  )
})
