// Checked by `tsc` (npm run typecheck): describeEval's typings as a user sees them.
import { expectTypeOf, test } from 'vitest'
import {
  type ConversationMessage,
  type DescribeEvalOptions,
  describeEval,
  type EvalScorerFn,
} from '../../evals/index'
import { createScorer, createToolCallScorer, createTrajectoryRubric } from '../../src'

type Row = { input: string; expected: string; name?: string }

test('rows type the task and the scorer functions; the output flows from the task', () => {
  const options: DescribeEvalOptions<Row, number> = {
    data: [{ input: 'a', expected: 'A' }],
    task: (row) => row.input.length,
    scorers: [
      ({ output, expected }) => {
        expectTypeOf(output).toEqualTypeOf<number>()
        expectTypeOf(expected).toEqualTypeOf<string>()
        return output > 0 ? 1 : null
      },
      createScorer({ id: 'any', description: 'Always 1' }).generateScore(() => 1),
    ],
    passRate: 0.9,
  }
  expectTypeOf(describeEval<Row, number>).toBeCallableWith('suite', options)
  const skip: EvalScorerFn = () => null
  const withMetadata: EvalScorerFn = () => ({ score: 0.5, metadata: { rationale: 'half' } })
  expectTypeOf([skip, withMetadata]).toExtend<EvalScorerFn[]>()
})

test('data is a list, a function, a path or a URL; unknown options and bad scores do not compile', () => {
  const task = (row: Row) => row.input
  const scorers = [() => 1]
  expectTypeOf(describeEval<Row>).toBeCallableWith('a', { data: './rows.jsonl', task, scorers })
  expectTypeOf(describeEval<Row>).toBeCallableWith('b', {
    data: new URL('file:///rows.csv'),
    task,
    scorers,
  })
  expectTypeOf(describeEval<Row>).toBeCallableWith('c', {
    data: async () => [{ input: 'a', expected: 'A' }],
    task,
    criteria: (row) => `- Mentions ${row.expected}`,
  })
  // @ts-expect-error: the gate is spelled passRate
  const typo: DescribeEvalOptions<Row> = { data: [], task, scorers, passrate: 0.9 }
  // @ts-expect-error: a scorer function returns a number, { score }, or null
  const bad: EvalScorerFn = () => 'yes'
  void [typo, bad]
})

test('a scorer gate entry takes a threshold, a direction, a mean and a weight; a direction other than min or max does not compile', () => {
  const task = (row: Row) => row.input
  const hallucination = (_args: { output: string }) => 0.1
  expectTypeOf(describeEval<Row, string>).toBeCallableWith('gates', {
    data: [{ input: 'a', expected: 'A' }],
    task,
    scorers: [
      { scorer: hallucination, direction: 'max', threshold: 0.5, mean: 0.2, weight: 2 },
      { scorer: createToolCallScorer({ expected: [{ name: 'lookup' }] }), threshold: 0.5 },
      createTrajectoryRubric({ criteria: '- Looks the order up first' }),
    ],
    mean: 0.8,
  })
  const lower: DescribeEvalOptions<Row, string> = {
    data: [],
    task,
    // @ts-expect-error: lower is better is spelled direction: 'max'
    scorers: [{ scorer: hallucination, direction: 'lower', threshold: 0.5 }],
  }
  void lower
})

test('a multi-turn task gets the conversation; a simulated user takes instructions from the row and a stop rule', () => {
  type Chat = { name: string; goal: string; turns?: { input: string; expected?: string }[] }
  expectTypeOf(describeEval<Chat, string>).toBeCallableWith('chat', {
    data: [{ name: 'refund', goal: 'Get a refund', turns: [{ input: 'Hi', expected: 'Hello' }] }],
    task: (_row, conversation) => {
      expectTypeOf(conversation.turn).toEqualTypeOf<number>()
      expectTypeOf(conversation.messages).toEqualTypeOf<readonly ConversationMessage[]>()
      return `reply to ${conversation.messages.at(-1)?.content}`
    },
    turnCriteria: '- Stays polite',
    simulatedUser: {
      instructions: (row) => `A customer who wants this: ${row.goal}`,
      maxTurns: 3,
      stop: (messages) => messages.length > 4,
    },
    criteria: '- Resolves the request',
  })
})
