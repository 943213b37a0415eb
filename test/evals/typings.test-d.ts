// Checked by `tsc` (npm run typecheck): describeEval's typings as a user sees them.
import { expectTypeOf, test } from 'vitest'
import { type DescribeEvalOptions, describeEval, type EvalScorerFn } from '../../evals/index'
import { createScorer } from '../../src'

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
