import { expect, test } from 'vitest'
import { recordAnnotations } from '../../src/records/record-annotations'
import { record, verdict } from './records'

test('a rubric becomes one annotation per criterion, in words, with the reasoning of unmet ones', () => {
  expect(
    recordAnnotations(
      record({
        negated: true,
        verdicts: [
          verdict('Apologises', true),
          { ...verdict('Offers\na human', false), agreement: { satisfied: 1, total: 3 } },
          verdict('Gives a timeframe', false, { required: false, reasoning: 'None.' }),
        ],
      }),
    ),
  ).toEqual([
    { type: 'rubricate', message: '(.not) met [required] Apologises' },
    {
      type: 'rubricate',
      message: '(.not) unmet [required] Offers a human: It does not. (1/3 samples)',
    },
    { type: 'rubricate', message: '(.not) unmet [optional] Gives a timeframe: None.' },
  ])
})

test('scorers, loops and errors become one annotation each', () => {
  const messages = [
    record({
      kind: 'scorer',
      scorerId: 'tone',
      score: 0.9,
      threshold: 0.8,
      reason: 'Warm.',
      verdicts: undefined,
    }),
    record({
      kind: 'loop',
      status: 'fail',
      verdicts: undefined,
      iterations: [{ iteration: 4, complete: false, outputPreview: '', scorers: [] }],
    }),
    record({
      status: 'error',
      verdicts: undefined,
      error: { code: 'RUBRICATE_JUDGE_REQUEST', message: 'Judge down.\nDetails.' },
    }),
  ].flatMap((r) => recordAnnotations(r).map((a) => a.message))
  expect(messages).toEqual([
    'scorer "tone" passed, score 0.9, threshold 0.8: Warm.',
    'loop incomplete after 4 iterations',
    'error RUBRICATE_JUDGE_REQUEST: Judge down.',
  ])
})
