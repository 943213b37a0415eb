// Type tests, checked by `tsc` (npm run typecheck): what the builder infers, and what must not compile.
import { expect, expectTypeOf, test } from 'vitest'
import '../../matchers'
import { z } from 'zod'
import {
  type AgentMessage,
  createScorer,
  notScorable,
  outputText,
  runUntilComplete,
  type ScorerResult,
  type ScorerRunInputForAgent,
} from '../../src'
import type { AgentMessageContent, AgentMessagePart } from '../../src/scorer/types'

test('type "agent" types the run input and output as agent messages', () => {
  createScorer({ id: 'a', description: 'a', type: 'agent' })
    .preprocess(({ run }) => {
      expectTypeOf(run.input).toEqualTypeOf<ScorerRunInputForAgent | undefined>()
      expectTypeOf(run.output).toEqualTypeOf<AgentMessage[]>()
      expectTypeOf(run.output[0]!.role).toEqualTypeOf<
        'system' | 'user' | 'assistant' | 'tool' | 'signal'
      >()
      return run.input?.inputMessages.length ?? 0
    })
    .generateScore(({ results }) => results.preprocessStepResult)

  const agent = createScorer({ id: 'a', description: 'a', type: 'agent' }).generateScore(() => 1)
  agent.run({
    input: {
      inputMessages: [],
      rememberedMessages: [],
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output: [{ role: 'assistant', content: 'hi' }],
  })
  // @ts-expect-error an agent scorer's output is a message list, not a string
  agent.run({ output: 'hi' })
  // @ts-expect-error messages need a known role
  agent.run({ output: [{ role: 'robot', content: 'hi' }] })
})

test('without a type, input and output are whatever the generics say', () => {
  const typed = createScorer<{ question: string }, string>({
    id: 't',
    description: 't',
  }).generateScore(({ run }) => {
    expectTypeOf(run.output).toEqualTypeOf<string>()
    expectTypeOf(run.input).toEqualTypeOf<{ question: string } | undefined>()
    return 1
  })
  // @ts-expect-error the output must be a string
  typed.run({ output: 42 })
})

test('step results flow through the builder: functions, schemas and text', async () => {
  const scorer = createScorer({ id: 'flow', description: 'flow' })
    .preprocess(async () => ({ words: ['a'] }))
    .analyze({
      description: 'analyze',
      createPrompt: ({ results }) => {
        expectTypeOf(results.preprocessStepResult).toEqualTypeOf<{ words: string[] }>()
        return 'x'
      },
      outputSchema: z.object({ verdict: z.boolean() }),
    })
    .generateScore(({ results }) => {
      expectTypeOf(results.analyzeStepResult).toEqualTypeOf<{ verdict: boolean }>()
      return results.analyzeStepResult.verdict ? 1 : 0
    })
    .generateReason(({ score }) => {
      expectTypeOf(score).toEqualTypeOf<number>()
      return 'because'
    })
  const result = await scorer.run({ output: 'x' })
  expectTypeOf(result).toEqualTypeOf<
    ScorerResult<any, any, { words: string[] }, { verdict: boolean }>
  >()
  expectTypeOf(result.score).toEqualTypeOf<number | undefined>()

  const text = createScorer({ id: 'text', description: 'text' })
    .analyze({ description: 'no schema', createPrompt: () => 'x' })
    .generateScore(({ results }) => results.analyzeStepResult.length)
  expectTypeOf(text.run)
    .returns.resolves.toHaveProperty('analyzeStepResult')
    .toEqualTypeOf<string | undefined>()

  // notScorable is not part of a step's result type
  createScorer({ id: 'ns', description: 'ns' })
    .preprocess(({ run }) => (run.output ? { ok: true } : notScorable('empty')))
    .generateScore(({ results }) => {
      expectTypeOf(results.preprocessStepResult).toEqualTypeOf<{ ok: boolean }>()
      return 1
    })
})

test('generateScore must produce a number and generateReason a string', () => {
  const base = createScorer({ id: 'bad', description: 'bad' })
  // @ts-expect-error a score is a number
  base.generateScore(() => 'high')
  base.generateScore(async () => notScorable())
  // @ts-expect-error a reason is a string
  base.generateScore(() => 1).generateReason(() => 42)
  // @ts-expect-error the id is required
  createScorer({ description: 'no id' })
})

test("an agent message's content is text, parts or Mastra's stored form, read with outputText", () => {
  createScorer({
    id: 'agent-response-quality',
    description: 'Evaluates agent responses',
    type: 'agent',
  }).generateScore(({ run }) => {
    const response = run.output[0]?.content
    expectTypeOf(response).toEqualTypeOf<
      string | AgentMessagePart[] | AgentMessageContent | undefined
    >()
    // Mastra's page reads `content.length`; Mastra 1.71's stored content has no length.
    // @ts-expect-error content may be `{ format: 2, parts }`
    void run.output[0]?.content.length
    return outputText(run.output[0]).length > 10 ? 1.0 : 0.5
  })
  const agent = createScorer({ id: 'a', description: 'a', type: 'agent' }).generateScore(() => 1)
  agent.run({ output: [{ role: 'signal', content: [{ type: 'text', text: 'stop' }] }] })
  agent.run({ output: [{ role: 'assistant', content: { format: 2, parts: [], content: 'hi' } }] })
  // @ts-expect-error content is text, parts or { format: 2, parts }, not a number
  agent.run({ output: [{ role: 'assistant', content: 42 }] })
})

test('agent and generic scorers go to runUntilComplete and toPassScorer without a cast', () => {
  const agent = createScorer({ id: 'a', description: 'a', type: 'agent' }).generateScore(() => 1)
  const typed = createScorer<{ q: string }, string>({ id: 't', description: 't' }).generateScore(
    () => 1,
  )
  void runUntilComplete(async () => 'x', { scorers: [agent, typed] })
  void expect('x').toPassScorer(agent)
  void expect('x').toPassScorer(typed)
})

test('calculateScore receives the judge answer typed by outputSchema', () => {
  createScorer({ id: 's', description: 's' }).generateScore({
    description: 'score',
    createPrompt: () => 'x',
    outputSchema: z.object({ score: z.number(), reason: z.string() }),
    calculateScore: ({ analyzeStepResult }) => {
      expectTypeOf(analyzeStepResult).toEqualTypeOf<{ score: number; reason: string }>()
      return analyzeStepResult.score
    },
  })
  createScorer({ id: 's', description: 's' }).generateScore({
    description: 'score',
    createPrompt: () => 'x',
    calculateScore: ({ analyzeStepResult }) => {
      expectTypeOf(analyzeStepResult).toEqualTypeOf<string>()
      return 1
    },
  })
  createScorer({ id: 's', description: 's' }).generateScore({
    description: 'score',
    createPrompt: () => 'x',
    outputSchema: z.object({ grade: z.string() }),
    // @ts-expect-error calculateScore must return a number
    calculateScore: ({ analyzeStepResult }) => analyzeStepResult.grade,
  })
})
