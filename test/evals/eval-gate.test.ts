// Unit: the suite's record from its rows: the gate is compared on counts, so a share that equals
// the gate passes whatever floating point makes of it, and each scorer's mean leaves skips out.
import { expect, test } from 'vitest'
import { summariseSuite } from '../../evals/eval-gate'
import type { EvalRowRecord } from '../../src/records/eval-records'

function row(name: string, passed: boolean, scores: Record<string, number>[]) {
  const record: EvalRowRecord = {
    v: 1,
    suite: 's',
    passed,
    errored: false,
    tolerated: !passed,
    trials: scores.map((trial) => ({ passed, scores: trial })),
    trialPassRate: 1,
    passRate: 0.7,
  }
  return { name, record }
}

test('a share of passing rows equal to the gate passes it, one row fewer does not', () => {
  // 7 / 10 is 0.7 exactly in decimal but 0.7 * 10 is 7.000000000000001 in floating point.
  const rows = Array.from({ length: 10 }, (_, i) => row(`r${i}`, i < 7, [{ a: i < 7 ? 1 : 0 }]))
  expect(summariseSuite('s', rows, 0.7, 1)).toMatchObject({
    rows: 10,
    passed: 7,
    failed: 3,
    rate: 0.7,
    gatePassed: true,
    failedRows: ['r7', 'r8', 'r9'],
  })
  const fewer = rows.map((r, i) => (i === 6 ? row('r6', false, [{ a: 0 }]) : r))
  expect(summariseSuite('s', fewer, 0.7, 1).gatePassed).toBe(false)
})

test('each scorer mean is taken over the trials it scored, in the order scorers first appear', () => {
  const rows = [row('a', true, [{ b: 1, a: 0.5 }, { b: 0 }]), row('b', true, [{ a: 1 }])]
  expect(summariseSuite('s', rows, 1, 2).scorers).toEqual([
    { id: 'b', mean: 0.5, scored: 2 },
    { id: 'a', mean: 0.75, scored: 2 },
  ])
})

test('mean gates: a max scorer passes at or under its gate, counts as 1 - mean in the weighted one, and an unscored scorer fails its gate', () => {
  const rows = [
    row('a', true, [{ quality: 1, toxicity: 0.2 }]),
    row('b', true, [{ quality: 0.6, toxicity: 0 }]),
  ]
  const record = summariseSuite('s', rows, 1, 1, {
    scorers: [
      { id: 'quality', direction: 'min', mean: 0.8, weight: 1 },
      { id: 'toxicity', direction: 'max', mean: 0.1, weight: 3 },
      { id: 'never', direction: 'min', mean: 0.5, weight: 1 },
    ],
    mean: 0.85,
  })
  expect(record.scorers).toEqual([
    { id: 'quality', mean: 0.8, scored: 2 },
    { id: 'toxicity', mean: 0.1, scored: 2, direction: 'max', weight: 3 },
  ])
  const coverage = { scored: 2, total: 2, minCoverage: 1 }
  expect(record.meanGates).toEqual([
    { scorer: 'quality', direction: 'min', threshold: 0.8, mean: 0.8, passed: true, ...coverage },
    { scorer: 'toxicity', direction: 'max', threshold: 0.1, mean: 0.1, passed: true, ...coverage },
    {
      scorer: 'never',
      direction: 'min',
      threshold: 0.5,
      mean: null,
      passed: false,
      ...coverage,
      scored: 0,
    },
    // (1 * 0.8 + 3 * (1 - 0.1)) / 4 = 0.875, over the scorers that scored; but "never" scored no
    // trial, so the weighted mean does not cover the suite's scorers and is unmet.
    { direction: 'min', threshold: 0.85, mean: 0.875, passed: false, ...coverage, scored: 0 },
  ])
  expect(record.rateGatePassed).toBe(true)
  expect(record.gatePassed).toBe(false)
})

test('a mean gate is met only over its coverage floor: every trial by default, or minCoverage', () => {
  const rows = [row('a', true, [{ json: 1, other: 1 }]), row('b', true, [{ other: 1 }])]
  const gates = (minCoverage?: number) =>
    summariseSuite('s', rows, 1, 1, {
      scorers: [
        { id: 'json', direction: 'min', mean: 0.9, weight: 1 },
        { id: 'other', direction: 'min', weight: 1 },
      ],
      mean: 0.9,
      ...(minCoverage !== undefined ? { minCoverage } : {}),
    }).meanGates
  expect(gates()).toEqual([
    {
      scorer: 'json',
      direction: 'min',
      threshold: 0.9,
      mean: 1,
      passed: false,
      scored: 1,
      total: 2,
      minCoverage: 1,
    },
    {
      direction: 'min',
      threshold: 0.9,
      mean: 1,
      passed: false,
      scored: 1,
      total: 2,
      minCoverage: 1,
    },
  ])
  expect(gates(0.5)?.map((gate) => gate.passed)).toEqual([true, true])
})

test('the weighted mean counts a scorer with a declared range as its share of it', () => {
  const rows = [row('a', true, [{ accuracy: 0, stars: 5 }])]
  const record = summariseSuite('s', rows, 1, 1, {
    scorers: [
      { id: 'accuracy', direction: 'min', weight: 1 },
      { id: 'stars', direction: 'min', weight: 1, range: [0, 5] },
    ],
    mean: 0.75,
  })
  expect(record.scorers[1]).toEqual({ id: 'stars', mean: 5, scored: 1, range: [0, 5] })
  expect(record.meanGates?.[0]).toMatchObject({ mean: 0.5, passed: false })
})
