import { afterEach, expect, test } from 'vitest'
import {
  createRubricScorer,
  createScorer,
  notScorable,
  onRecord,
  type RubricateRecord,
  runUntilComplete,
} from '../../src'
import { withCallContext } from '../../src/runtime/call-context'
import { scriptedJudge } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'

const records: RubricateRecord[] = []
const off = onRecord((record) => records.push(record))
afterEach(() => {
  records.length = 0
})
process.on('exit', off)

const verdicts = (satisfied: boolean) => ({
  c1: { reasoning: satisfied ? 'It does.' : 'It does not.', satisfied },
})

test('a plain scorer.run() is recorded once, with its score and judge calls, as toPassScorer would judge it', async () => {
  const judge = scriptedJudge([{ score: 0.5 }])
  const scorer = createScorer({
    id: 'half',
    description: 'half',
    judge: { model: judge },
  }).generateScore({
    description: 'score',
    createPrompt: () => 'score it',
  })
  const result = await scorer.run({ output: 'An answer' })
  expect(records).toEqual([
    {
      v: 1,
      kind: 'scorer',
      status: 'fail',
      negated: false,
      score: 0.5,
      threshold: 1,
      judgeCalls: result.judgeCalls,
      durationMs: expect.any(Number),
      outputPreview: 'An answer',
      output: 'An answer',
      scorerId: 'half',
    },
  ])
})

test('a rubric scorer run is one record decided on passed, with its verdicts', async () => {
  const scorer = createRubricScorer({
    model: scriptedJudge([{ criteria: verdicts(true), overallAssessment: 'Fine.' }]),
    criteria: '- Answers',
  })
  await scorer.run({ input: 'q', output: 'a' })
  expect(records).toHaveLength(1)
  expect(records[0]).toMatchObject({
    kind: 'scorer',
    status: 'pass',
    scorerId: 'rubric-scorer',
    input: 'q',
    output: 'a',
  })
  expect(records[0]?.verdicts?.map((v) => v.satisfied)).toEqual([true])
})

test('a failing run is an error record with the root cause; a not-scorable run is an error too', async () => {
  const failing = createScorer({ id: 'boom', description: 'boom' }).generateScore(() => {
    throw new Error('no luck')
  })
  await rejectionOf(failing.run({ output: 'x' }))
  await createScorer({ id: 'skip', description: 'skip' })
    .generateScore(() => notScorable('empty output'))
    .run({ output: '' })
  expect(records.map((r) => [r.scorerId, r.status, r.error?.code])).toEqual([
    ['boom', 'error', 'RUBRICATE_SCORER_RUN'],
    ['skip', 'error', 'RUBRICATE_USAGE'],
  ])
  expect(records[1]?.error?.message).toBe('Scorer "skip" could not score the output: empty output')
})

test('runs that a matcher or a loop records are not recorded a second time', async () => {
  const scorer = createScorer({ id: 'one', description: 'one' }).generateScore(() => 1)
  await withCallContext({ recordsScorerRuns: true }, () => scorer.run({ output: 'x' }))
  expect(records).toEqual([])
  await runUntilComplete(async () => 'done', { scorers: [scorer] })
  expect(records.map((r) => r.kind)).toEqual(['loop'])
})

test("a plain scorer.run() in an eval row's trial is recorded with its trial", async () => {
  const scorer = createScorer({ id: 'one', description: 'one' }).generateScore(() => 1)
  await withCallContext({ trial: 2 }, () => scorer.run({ output: 'An answer' }))
  expect(records).toHaveLength(1)
  expect(records[0]).toMatchObject({ kind: 'scorer', scorerId: 'one', trial: 2 })
})
