import { stripVTControlCharacters } from 'node:util'
import { beforeAll, expect, test } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { EVAL_ASSERTION } from '../../matchers/eval-assertion'
import type { RubricateRecord } from '../../src/records/records'
import { currentCallContext, withCallContext } from '../../src/runtime/call-context'
import { runChoicesOf } from '../../src/runtime/run-choices'
import { linked } from '../support/error-page'

expect.extend({ toSatisfyRubric, toPassScorer })

// A scorer that reports a fixed result and remembers what it was called with.
function fixedScorer(result: Record<string, unknown>, id = 'fixed') {
  const calls: { run: unknown; context: ReturnType<typeof currentCallContext> }[] = []
  return {
    id,
    calls,
    async run(run: unknown) {
      calls.push({ run, context: currentCallContext() })
      return result
    },
  }
}

const verdicts = [
  { id: 'c1', criterion: 'Apologises', required: true, satisfied: true, reasoning: 'Says sorry.' },
  {
    id: 'c2',
    criterion: 'Offers a refund',
    required: true,
    satisfied: false,
    reasoning: 'No refund is offered.',
  },
  { id: 'c3', criterion: 'Gives a date', required: false, satisfied: false, reasoning: 'No date.' },
]
const judgeCalls = [
  {
    step: 'analyze',
    model: 'gpt-4.1-mini',
    status: 'success',
    source: 'replayed',
    usage: { inputTokens: 700, outputTokens: 112, totalTokens: 812 },
    durationMs: 1,
    attemptCount: 1,
    modelCallCount: 0,
  },
]
const unmet = fixedScorer({ score: 0, passed: false, verdicts, reason: 'r', judgeCalls })
const met = fixedScorer({
  score: 1,
  passed: true,
  verdicts: verdicts.map((v) => ({ ...v, satisfied: true })),
  judgeCalls,
})

// Messages are compared without colours: matcherHint colours them when the terminal allows.
async function failureOf(assertion: Promise<void>): Promise<Error> {
  try {
    await assertion
  } catch (error) {
    const plain = error as Error
    plain.message = stripVTControlCharacters(plain.message)
    return plain
  }
  throw new Error('the assertion passed')
}

test('an unmet rubric fails with each criterion, its verdict and reasoning, the output and the judge', async () => {
  const error = await failureOf(expect('Sorry about that.').toSatisfyRubric(unmet))
  expect(error.message).toBe(`expect(output).toSatisfyRubric(criteria)

Rubric not satisfied: 1 of 2 required criteria unmet.

  ✓ [required] Apologises
      → Says sorry.
  ✗ [required] Offers a refund
      → No refund is offered.
  ○ [optional] Gives a date
      → No date.

Output: "Sorry about that."
Judge: gpt-4.1-mini · replayed · 812 tokens`)
})

test('.not passes on an unmet rubric and fails on a met one, saying every required criterion is met', async () => {
  await expect('Sorry about that.').not.toSatisfyRubric(unmet)
  const error = await failureOf(expect('Sorry, refund on Monday.').not.toSatisfyRubric(met))
  expect(error.message).toBe(`expect(output).not.toSatisfyRubric(criteria)

Expected at least one required criterion to be unmet, but every required criterion is met.

  ✓ [required] Apologises
      → Says sorry.
  ✓ [required] Offers a refund
      → No refund is offered.
  ✓ [optional] Gives a date
      → No date.

Output: "Sorry, refund on Monday."
Judge: gpt-4.1-mini · replayed · 812 tokens`)
})

test('a rubric with no required criterion counts criteria in its header', async () => {
  const optionalOnly = fixedScorer({
    score: 0,
    passed: false,
    verdicts: [
      { id: 'c1', criterion: 'Is short', required: false, satisfied: false, reasoning: 'Long.' },
    ],
  })
  const error = await failureOf(expect('x').toSatisfyRubric(optionalOnly))
  expect(error.message).toContain('Rubric not satisfied: 1 of 1 criterion unmet.')
  expect(error.message).not.toContain('Judge:')
})

test('a long output is shown by its first 200 characters', async () => {
  const error = await failureOf(expect('a'.repeat(300)).toSatisfyRubric(unmet))
  expect(error.message).toContain(`Output: "${'a'.repeat(200)}" (first 200 characters)`)
})

test('a scorer error fails toSatisfyRubric and .not.toSatisfyRubric alike, with its code and message', async () => {
  const broken = {
    id: 'broken',
    run: async () => {
      throw Object.assign(new Error('[rubricate] The judge answered 401.'), {
        code: 'RUBRICATE_JUDGE_REQUEST',
        name: 'JudgeRequestError',
      })
    },
  }
  for (const assertion of [
    () => expect('x').toSatisfyRubric(broken),
    () => expect('x').not.toSatisfyRubric(broken),
  ]) {
    const error = await failureOf(assertion())
    expect(error.name).toBe('JudgeRequestError')
    expect((error as Error & { code?: string }).code).toBe('RUBRICATE_JUDGE_REQUEST')
    expect(error.message).toMatch(
      /^expect\(output\)(\.not)?\.toSatisfyRubric\(criteria\)\n\nThis assertion could not be decided, so it fails with or without \.not \(RUBRICATE_JUDGE_REQUEST\):\n\[rubricate\] The judge answered 401\.$/,
    )
  }
})

test('the root cause of a wrapped error is reported', async () => {
  const root = Object.assign(new Error('[rubricate] Replay missed.'), {
    code: 'RUBRICATE_CASSETTE_MISS',
  })
  const wrapped = Object.assign(new Error('Scorer Run Failed'), {
    code: 'RUBRICATE_SCORER_RUN',
    cause: root,
  })
  const scorer = { run: async () => Promise.reject(wrapped) }
  const error = await failureOf(expect('x').toPassScorer(scorer))
  expect(error.message).toContain('(RUBRICATE_CASSETTE_MISS):\n[rubricate] Replay missed.')
})

test('toPassScorer passes at the threshold and fails below it, with score, threshold and reason', async () => {
  const half = fixedScorer({ score: 0.5, reason: 'Half helpful.' }, 'helpfulness')
  await expect('x').toPassScorer(half, { threshold: 0.5 })
  const error = await failureOf(expect('x').toPassScorer(half))
  expect(error.message).toBe(`expect(output).toPassScorer(scorer)

Scorer "helpfulness" scored 0.5; expected at least 1.
Reason: Half helpful.

Output: "x"`)
  const negated = await failureOf(expect('x').not.toPassScorer(half, { threshold: 0.4 }))
  expect(negated.message).toContain('Scorer "helpfulness" scored 0.5; expected less than 0.4.')
})

test('toPassScorer with direction "max" passes at or under the threshold, fails above it, and needs a threshold', async () => {
  const rate = fixedScorer({ score: 0.3 }, 'hallucination')
  await expect('x').toPassScorer(rate, { direction: 'max', threshold: 0.3 })
  await expect('x').not.toPassScorer(rate, { direction: 'max', threshold: 0.2 })
  const error = await failureOf(
    expect('x').toPassScorer(rate, { direction: 'max', threshold: 0.2 }),
  )
  expect(error.message).toContain(
    'Scorer "hallucination" scored 0.3; expected at most 0.2 (direction "max": lower is better).',
  )
  const mean = await failureOf(
    expect('x').toPassScorer([rate, fixedScorer({ score: 0.5 }, 'toxicity')], {
      aggregate: 'mean',
      direction: 'max',
      threshold: 0.3,
    }),
  )
  expect(mean.message).toContain(
    'The scorers\' mean score is 0.4; expected at most 0.3 (aggregate "mean", direction "max").',
  )
  const missing = await failureOf(expect('x').toPassScorer(rate, { direction: 'max' }))
  expect(missing.message).toContain(
    '[rubricate] toPassScorer() got direction "max" (lower is better) without a "threshold", so it could not say how low a score must be.',
  )
})

test('toPassScorer uses a rubric scorer’s passed unless a threshold is given', async () => {
  // A score of 10 is in range only when the scorer declares it (ARCHITECTURE.md §5).
  const scaled = Object.assign(fixedScorer({ score: 10, passed: true }, 'rubric'), {
    range: [0, 10] as const,
  })
  await expect('x').toPassScorer(scaled)
  await expect('x').not.toPassScorer(scaled, { threshold: 11 })
  const failing = fixedScorer({ score: 0, passed: false, verdicts }, 'rubric')
  const error = await failureOf(expect('x').toPassScorer(failing))
  expect(error.message).toContain(
    'Scorer "rubric" did not pass (score 0).\n\n  ✓ [required] Apologises',
  )
})

test('toPassScorer passes input, ground truth and request context to the scorer', async () => {
  const scorer = fixedScorer({ score: 1 })
  await expect({ text: 'out' }).toPassScorer(scorer, {
    input: 'in',
    groundTruth: 'truth',
    requestContext: { rubric: 'r' },
  })
  const run = scorer.calls[0]?.run as object
  // Its own fields, as given; the matcher's choices ride beside them under a symbol.
  expect(Object.fromEntries(Object.entries(run))).toEqual({
    input: 'in',
    output: { text: 'out' },
    groundTruth: 'truth',
    requestContext: { rubric: 'r' },
  })
  expect(runChoicesOf(run).test?.name).toBe(
    'toPassScorer passes input, ground truth and request context to the scorer',
  )
})

test('the test identity, its abort signal and the call-site cassette mode reach the scorer', async ({
  task,
  signal,
}) => {
  const scorer = fixedScorer({ score: 1, passed: true })
  await expect('x').toSatisfyRubric(scorer, { cassettes: 'off', input: 'q' })
  const { context, run } = scorer.calls[0] ?? {}
  expect(run).toMatchObject({ input: 'q', output: 'x' })
  // All three travel with the run as values, for the pipeline to hand its judge calls: the test,
  // the test's own signal (it fires on a test timeout) and the call site's cassette mode.
  expect(runChoicesOf(run)).toEqual({
    cassetteMode: 'off',
    test: {
      file: task.file.filepath,
      name: 'the test identity, its abort signal and the call-site cassette mode reach the scorer',
      id: task.id,
    },
    signal,
  })
  // Only the mark for the runs beneath the matcher's is ambient.
  expect(context).toEqual({ recordsScorerRuns: true })
})

test('a record keeps the input and the output judged for the report page, cut at 4,000 characters with the whole length', async ({
  task,
}) => {
  const long = 'word '.repeat(1000)
  await expect(long).toPassScorer(fixedScorer({ score: 1 }), {
    input: [{ role: 'user', content: 'Write five thousand characters.' }],
  })
  await expect('short').toSatisfyRubric(fixedScorer({ score: 1, passed: true }))
  const [first, second] = task.meta.rubricate as RubricateRecord[]
  expect(first).toMatchObject({
    outputPreview: long.slice(0, 200),
    output: long.slice(0, 4000),
    outputLength: 5000,
    // The task as the judge reads it: the user's message.
    input: 'Write five thousand characters.',
  })
  expect(first).not.toHaveProperty('inputLength')
  expect(second).toMatchObject({ outputPreview: 'short', output: 'short' })
  expect(second).not.toHaveProperty('input')
  expect(second).not.toHaveProperty('outputLength')
})

test('each assertion appends a record to task.meta.rubricate', async ({ task }) => {
  await expect('Sorry about that.').not.toSatisfyRubric(unmet)
  await expect('x')
    .toPassScorer(fixedScorer({ score: 0.2, reason: 'low' }, 'low'))
    .catch(() => {})
  await expect(Promise.resolve('x'))
    .toSatisfyRubric(met)
    .catch(() => {})
  const records = task.meta.rubricate as RubricateRecord[]
  expect(records).toHaveLength(3)
  expect(records[0]).toEqual({
    v: 1,
    kind: 'rubric',
    status: 'pass',
    negated: true,
    score: 0,
    verdicts,
    reason: 'r',
    judgeCalls,
    durationMs: expect.any(Number),
    outputPreview: 'Sorry about that.',
    output: 'Sorry about that.',
    scorerId: 'fixed',
  })
  expect(records[1]).toMatchObject({
    kind: 'scorer',
    status: 'fail',
    negated: false,
    score: 0.2,
    threshold: 1,
    reason: 'low',
    scorerId: 'low',
  })
  expect(records[2]).toMatchObject({
    kind: 'rubric',
    status: 'error',
    error: { code: 'RUBRICATE_USAGE', message: expect.stringContaining('is a Promise') },
  })
  expect(JSON.parse(JSON.stringify(records))).toEqual(records)
})

let outsideATest: unknown
beforeAll(async () => {
  try {
    await expect('Sorry').toSatisfyRubric(met)
    outsideATest = 'passed'
  } catch (error) {
    outsideATest = error
  }
})

test('outside a test (beforeAll) the matcher works and records nothing', () => {
  expect(outsideATest).toBe('passed')
})

test('an empty rubric is a usage error', async () => {
  for (const empty of ['', '  \n ', []]) {
    const error = await failureOf(expect('x').toSatisfyRubric(empty as string))
    expect(error.message).toContain(
      '(RUBRICATE_USAGE):\n[rubricate] toSatisfyRubric() got an empty rubric',
    )
  }
  const error = await failureOf(expect('x').not.toSatisfyRubric(''))
  expect(error.message).toContain(
    '[rubricate] toSatisfyRubric() got an empty rubric (""), so there is nothing to judge. Pass at least one criterion: a string with one criterion per line, or a list.',
  )
})

test('bad criteria, scorers and options are usage errors that say what to pass', async () => {
  const cases: [() => Promise<void>, string][] = [
    [
      () => expect('x').toSatisfyRubric(42 as never),
      '[rubricate] toSatisfyRubric() expects criteria as a string (one per line), a list of strings or { description, required? } objects, or a rubric scorer, but got 42.',
    ],
    [
      () => expect('x').toPassScorer({} as never),
      '[rubricate] toPassScorer() expects a scorer (an object with a run() method, from createScorer() or createRubricScorer()), but got {}.',
    ],
    [
      () => expect('x').toSatisfyRubric(met, { sample: 3 } as never),
      '[rubricate] toSatisfyRubric() options got an unknown option "sample". Did you mean "samples"? Known options: "input", "groundTruth", "expected", "context", "judge", "samples", "evaluation", "scoring", "threshold", "cassettes".',
    ],
    [
      () => expect('x').toSatisfyRubric(met, { samples: 3 }),
      '[rubricate] toSatisfyRubric() got a scorer as its rubric, so the options "samples" have no effect there. Set them on the scorer: createRubricScorer({ judge, criteria, options: { samples, evaluation } }).',
    ],
    [
      () => expect('x').toSatisfyRubric(met, { cassettes: 'replay-only' as never }),
      '[rubricate] toSatisfyRubric() option "cassettes" is "replay-only", which is not a cassette mode. Use one of "replay", "auto", "record", "off".',
    ],
    [
      () => expect('x').toPassScorer(met, { threshold: '0.5' as never }),
      '[rubricate] toPassScorer() option "threshold" must be a finite number, but is "0.5".',
    ],
  ]
  for (const [assertion, message] of cases) {
    const error = await failureOf(assertion())
    // The message's last line is its link; the one above it, what to change.
    expect(error.message.split('\n').slice(-2).join('\n')).toBe(linked(message, 'usage'))
  }
})

test('a result with noRubric or notScorable, or without a score, is a usage error, not a pass', async () => {
  const noRubric = fixedScorer({ score: 1, passed: true, noRubric: true }, 'rubric-scorer')
  const notScorable = fixedScorer(
    { notScorable: { step: 'preprocess', reason: 'no answer to score' } },
    'answer',
  )
  const noScore = fixedScorer({ reason: 'forgot the score' }, 'sloppy')
  const cases: [() => Promise<void>, string][] = [
    [
      () => expect('x').toSatisfyRubric(noRubric),
      '[rubricate] toSatisfyRubric(): the rubric scorer "rubric-scorer" found no rubric, so it passed by default without judging anything. Give it criteria (createRubricScorer({ criteria })), or pass one at run time (requestContext: { rubric }).',
    ],
    [
      () => expect('x').not.toPassScorer(notScorable),
      '[rubricate] toPassScorer(): the scorer "answer" marked the output as not scorable in its preprocess step: no answer to score. An unscored output is neither a pass nor a fail; change the input or the scorer so it can be scored.',
    ],
    [
      () => expect('x').toPassScorer(noScore),
      '[rubricate] toPassScorer(): the scorer "sloppy" returned undefined as its score, which is not a number. A scorer\'s run() must resolve to { score: number, ... }.',
    ],
  ]
  for (const [assertion, message] of cases) {
    const error = await failureOf(assertion())
    // The message's last line is its link; the one above it, what to change.
    expect(error.message.split('\n').slice(-2).join('\n')).toBe(linked(message, 'usage'))
  }
})

test("an assertion made in an eval row's trial and turn stores its record with both", async ({
  task,
}) => {
  const stored: RubricateRecord[] = []
  const meta = task.meta as { rubricate?: RubricateRecord[] }
  // The array the matcher stores into, watched: the record must be complete as it is pushed.
  class Watched extends Array<RubricateRecord> {
    override push(...items: RubricateRecord[]): number {
      stored.push(...items.map((item) => ({ ...item })))
      return super.push(...items)
    }
  }
  meta.rubricate = new Watched()
  // The trial is ambient (the task's own calls are keyed with it); describeEval gives the turn
  // in the matcher's options.
  await withCallContext({ trial: 2 }, () =>
    expect('x').toPassScorer(fixedScorer({ score: 1 }), {
      [EVAL_ASSERTION]: { row: 'row 1', turn: 3 },
    } as never),
  )
  expect(stored).toHaveLength(1)
  meta.rubricate = [...meta.rubricate]
  expect(stored[0]).toMatchObject({ kind: 'scorer', trial: 2, turn: 3 })
})
