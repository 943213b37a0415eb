// describeEval checks its options when it is called, before any row runs: a typo or a wrong type
// is a RUBRICATE_USAGE error that says what to change.
import { expect, test } from 'vitest'
import { describeEval } from '../../evals/index'
import { linked } from '../support/error-page'

const task = (row: { input?: unknown }) => String(row.input)
const scorers = [() => 1]

function usage(fn: () => void): { code: unknown; message: string } {
  try {
    fn()
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message }
  }
  throw new Error('describeEval did not throw')
}

test('an unknown option is a usage error that lists the known ones', () => {
  expect(
    usage(() => describeEval('x', { data: [], task, scorers, passrate: 0.9 } as never)),
  ).toEqual({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] describeEval() options got an unknown option "passrate". Did you mean "passRate"? Known options: "data", "task", "criteria", "turnCriteria", "simulatedUser", "scorers", "threshold", "passRate", "mean", "minCoverage", "trials", "trialPassRate", "concurrent", "timeout".',
      'usage',
    ),
  })
})

test('an eval with neither criteria nor scorers is a usage error', () => {
  expect(usage(() => describeEval('x', { data: [{ input: 1 }], task })).message).toBe(
    linked(
      '[rubricate] describeEval() got neither "criteria" nor "scorers", so nothing would judge the outputs. Pass a rubric as "criteria", scorers as "scorers", or both.',
      'usage',
    ),
  )
})

test('data, task, scorers, rates, trials and the name are checked', () => {
  const cases: [() => void, string][] = [
    [
      () => describeEval('x', { data: 42 as never, task, scorers }),
      '[rubricate] describeEval() option "data" must be a list of rows, a function that returns one (sync or async), or the path of a .json, .jsonl or .csv file, but is 42.',
    ],
    [
      () => describeEval('x', { data: [], task: 'agent' as never, scorers }),
      '[rubricate] describeEval() option "task" must be a function of the row that returns the output to judge, but is "agent".',
    ],
    [
      () => describeEval('x', { data: [], task, scorers: [{ score: 1 } as never] }),
      '[rubricate] describeEval() option "scorers": item 1 is {"score":1}. A scorer is one from createScorer() or createRubricScorer(), or a function ({ input, output, expected }) => number | { score, metadata? } | null; either may sit in a gate entry { scorer, threshold?, direction?, mean?, weight? }.',
    ],
    [
      () => describeEval('x', { data: [], task, scorers, passRate: 90 }),
      '[rubricate] describeEval() option "passRate" must be a number from 0 to 1 (the share that must pass), but is 90.',
    ],
    [
      () => describeEval('x', { data: [], task, scorers, trialPassRate: -1 }),
      '[rubricate] describeEval() option "trialPassRate" must be a number from 0 to 1 (the share that must pass), but is -1.',
    ],
    [
      () => describeEval('x', { data: [], task, scorers, trials: 1.5 }),
      '[rubricate] describeEval() option "trials" must be a positive integer, but is 1.5.',
    ],
    [
      () => describeEval('x', { data: [], task, scorers, threshold: Number.NaN }),
      '[rubricate] describeEval() option "threshold" must be a finite number, but is NaN.',
    ],
    [
      () => describeEval('', { data: [], task, scorers }),
      '[rubricate] describeEval() expects a name (a non-empty string) first, but got "".',
    ],
  ]
  for (const [call, message] of cases)
    expect(usage(call)).toEqual({ code: 'RUBRICATE_USAGE', message: linked(message, 'usage') })
})

test('a scorer gate entry checks its direction, numbers, keys and a max without a threshold', () => {
  const exact = function exact() {
    return 1
  }
  const cases: [() => void, string][] = [
    [
      () => describeEval('x', { data: [], task, scorers: [{ scorer: exact, direction: 'max' }] }),
      '[rubricate] describeEval() option "scorers", item 1 ("exact") got direction "max" (lower is better) without a "threshold", so it could not say how low a score must be. Add one, e.g. { direction: \'max\', threshold: 0.2 }.',
    ],
    [
      () =>
        describeEval('x', {
          data: [],
          task,
          scorers: [{ scorer: exact, direction: 'down' as never }],
        }),
      '[rubricate] describeEval() option "scorers", item 1: "direction" is "down", which is not supported. Use one of "min", "max".',
    ],
    [
      () => describeEval('x', { data: [], task, scorers: [{ scorer: exact, weight: -1 }] }),
      '[rubricate] describeEval() option "scorers": the gate of "exact" has "weight" -1, which must be a finite number of 0 or more. For instance { scorer, threshold: 0.8, mean: 0.9, weight: 2 }.',
    ],
    [
      () =>
        describeEval('x', { data: [], task, scorers: [{ scorer: exact, treshold: 1 } as never] }),
      '[rubricate] describeEval() option "scorers", item 1 got an unknown option "treshold". Did you mean "threshold"? Known options: "scorer", "threshold", "direction", "range", "mean", "minCoverage", "weight".',
    ],
    [
      () => describeEval('x', { data: [], task, scorers: [exact, { scorer: exact, mean: 0.5 }] }),
      '[rubricate] describeEval() option "scorers" holds two scorers named "exact". Scores and gates are kept by name, so the two would be mixed up: give one another id (a function\'s name, or its "id" property).',
    ],
    [
      () => describeEval('x', { data: [], task, scorers, mean: '0.8' as never }),
      '[rubricate] describeEval() option "mean" (the gate on the weighted mean of the scorers) must be a finite number, but is "0.8".',
    ],
  ]
  for (const [call, message] of cases)
    expect(usage(call)).toEqual({ code: 'RUBRICATE_USAGE', message: linked(message, 'usage') })
})

test('a simulated user needs instructions, a positive maxTurns and a stop function', () => {
  const cases: [() => void, string][] = [
    [
      () => describeEval('x', { data: [], task, scorers, simulatedUser: {} as never }),
      '[rubricate] describeEval() option "simulatedUser" needs "instructions": who the simulated user is and how they write (a string, or a function of the row), but got undefined. For instance { instructions: \'A customer charged twice, short-tempered, writes in short sentences.\' }.',
    ],
    [
      () =>
        describeEval('x', {
          data: [],
          task,
          scorers,
          simulatedUser: { instructions: 'A customer', maxTurns: 0 },
        }),
      '[rubricate] describeEval() option "simulatedUser.maxTurns" must be a positive integer, but is 0.',
    ],
    [
      () =>
        describeEval('x', {
          data: [],
          task,
          scorers,
          simulatedUser: { instructions: 'A customer', stop: 'done' as never },
        }),
      '[rubricate] describeEval() option "simulatedUser.stop" must be a function of the conversation\'s messages that returns true to end it, but is "done".',
    ],
  ]
  for (const [call, message] of cases)
    expect(usage(call)).toEqual({ code: 'RUBRICATE_USAGE', message: linked(message, 'usage') })
})
