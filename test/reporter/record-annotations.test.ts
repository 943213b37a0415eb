import { expect, test } from 'vitest'
import { recordAnnotation } from '../../src/output-safety/record-annotations'
import { record, verdict } from './records'

test('a rubric becomes one annotation, a line per criterion in words, with the reasoning of unmet ones', () => {
  expect(
    recordAnnotation(
      record({
        negated: true,
        verdicts: [
          verdict('Apologises', true),
          { ...verdict('Offers\na human', false), agreement: { satisfied: 1, total: 3 } },
          verdict('Gives a timeframe', false, { required: false, reasoning: 'None.' }),
        ],
      }),
    ),
  ).toEqual({
    type: 'rubricate',
    message:
      '(.not) met [required] Apologises\r\n' +
      '     (.not) unmet [required] Offers a human: It does not. (1/3 samples)\r\n' +
      '     (.not) unmet [optional] Gives a timeframe: None.',
  })
})

test('scorers, loops and errors become one annotation each, a loop with its verdicts under it', () => {
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
      verdicts: [verdict('Apologises', false, { reasoning: 'No.' })],
      iterations: [{ iteration: 4, complete: false, outputPreview: '', scorers: [] }],
    }),
    record({
      status: 'error',
      verdicts: undefined,
      error: { code: 'RUBRICATE_JUDGE_REQUEST', message: 'Judge down.\nDetails.' },
    }),
  ].map((r) => recordAnnotation(r)?.message)
  expect(messages).toEqual([
    'scorer "tone" passed, score 0.9, threshold 0.8: Warm.',
    'loop incomplete after 4 iterations\r\n     unmet [required] Apologises: No.',
    'error RUBRICATE_JUDGE_REQUEST: Judge down.',
  ])
})

test('a record with nothing to say makes no annotation', () => {
  expect(recordAnnotation(record({ verdicts: [] }))).toBeUndefined()
})
