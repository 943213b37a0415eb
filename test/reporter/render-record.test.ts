import { expect, test } from 'vitest'
import { plain } from '../../reporters/figures'
import { renderRecords } from '../../reporters/render-record'
import { record, verdict } from './records'

const style = { indent: '     ', colors: plain }

test('a rubric lists each criterion with its tag, and the reasoning of unmet ones only', () => {
  const lines = renderRecords(
    [
      record({
        status: 'fail',
        verdicts: [
          verdict('Apologises', true),
          verdict('Offers a human agent', false, {
            reasoning: 'The reply never mentions\n a person to talk to.',
          }),
          verdict('Gives a timeframe', false, { required: false, reasoning: 'None given.' }),
        ],
      }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✓ [required] Apologises',
    '     ✗ [required] Offers a human agent: The reply never mentions a person to talk to.',
    '     ○ [optional] Gives a timeframe: None given.',
  ])
})

test('several assertions in one test each get a heading, and .not is shown', () => {
  const lines = renderRecords(
    [
      record({ verdicts: [verdict('Is polite', true)] }),
      record({
        negated: true,
        verdicts: [verdict('Mentions a competitor', false, { reasoning: 'It does not.' })],
      }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✓ rubric: 1 of 1 required met',
    '       ✓ [required] Is polite',
    '     ✓ rubric (.not): 0 of 1 required met',
    '       ✗ [required] Mentions a competitor: It does not.',
  ])
})

test('sample agreement is shown when a criterion was judged more than once', () => {
  const lines = renderRecords(
    [
      record({
        verdicts: [{ ...verdict('Is polite', true), agreement: { satisfied: 2, total: 3 } }],
      }),
    ],
    style,
  )
  expect(lines).toEqual(['     ✓ [required] Is polite (2/3 samples)'])
})

test('a judge error shows its code and the first line of its message, without the prefix', () => {
  const lines = renderRecords(
    [
      record({
        status: 'error',
        verdicts: undefined,
        error: {
          code: 'RUBRICATE_JUDGE_OUTPUT',
          message: '\n[rubricate] The judge answered invalid JSON.\nRaw reply: ...',
        },
      }),
    ],
    style,
  )
  expect(lines).toEqual(['     ! RUBRICATE_JUDGE_OUTPUT: The judge answered invalid JSON.'])
})

test('a scorer assertion shows score and threshold, then its verdicts (a reason only without them)', () => {
  const lines = renderRecords(
    [
      record({
        kind: 'scorer',
        scorerId: 'tone',
        status: 'fail',
        score: 0.4444,
        threshold: 0.8,
        reason: 'Curt.',
        verdicts: [verdict('Is warm', false, { reasoning: 'Curt.' })],
      }),
      record({ kind: 'scorer', status: 'pass', score: 1, verdicts: undefined }),
      record({
        kind: 'scorer',
        scorerId: 'tone',
        status: 'error',
        error: { code: 'RUBRICATE_SCORER_RUN', message: 'Step "analyze" failed.' },
      }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✗ scorer "tone": score 0.44, threshold 0.8',
    '       ✗ [required] Is warm: Curt.',
    '     ✓ scorer: score 1',
    '     ! scorer "tone"',
    '       ! RUBRICATE_SCORER_RUN: Step "analyze" failed.',
  ])
})

test('a loop shows its outcome and one line per iteration with each scorer', () => {
  const lines = renderRecords(
    [
      record({
        kind: 'loop',
        status: 'fail',
        verdicts: [verdict('Is polite', false, { reasoning: 'Still curt.' })],
        iterations: [
          {
            iteration: 1,
            complete: false,
            outputPreview: 'no',
            scorers: [
              { id: 'polite', score: 0, passed: false, errored: false, reason: 'Curt.' },
              { id: 'facts', passed: true, errored: false },
            ],
          },
          {
            iteration: 2,
            complete: false,
            outputPreview: 'no.',
            scorers: [{ id: 'polite', passed: false, errored: true, reason: 'Judge down.' }],
          },
        ],
      }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✗ loop: incomplete after 2 iterations',
    '       1. ✗ polite 0: Curt. · ✓ facts',
    '       2. ! polite: Judge down.',
    '       ✗ [required] Is polite: Still curt.',
  ])
})

test("a rubric scorer's iteration names the criteria it found unmet instead of its whole reason", () => {
  const lines = renderRecords(
    [
      record({
        kind: 'loop',
        status: 'pass',
        iterations: [
          {
            iteration: 1,
            complete: false,
            outputPreview: 'draft',
            scorers: [
              {
                id: 'rubric',
                score: 0,
                passed: false,
                errored: false,
                reason:
                  '❌ Rubric not satisfied: 2 of 3 required criteria unmet.\n\n✅ [required] ...',
                unmet: ['Has an analysis section', 'Gives recommendations'],
              },
            ],
          },
          {
            iteration: 2,
            complete: true,
            outputPreview: 'report',
            scorers: [{ id: 'rubric', score: 1, passed: true, errored: false }],
          },
        ],
      }),
    ],
    style,
  )
  expect(lines).toEqual([
    '     ✓ loop: complete after 2 iterations',
    '       1. ✗ rubric 0: unmet: Has an analysis section; Gives recommendations',
    '       2. ✓ rubric 1',
  ])
})

test('with colours the symbols are painted, and without them the text is plain', () => {
  const painted = renderRecords([record({ verdicts: [verdict('Is polite', true)] })], {
    indent: '',
    colors: { ...plain, green: (text) => `<g>${text}</g>`, dim: (text) => `<d>${text}</d>` },
  })
  expect(painted).toEqual(['<g>✓</g> <d>[required]</d> Is polite'])
})
