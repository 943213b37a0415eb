import { expect, test } from 'vitest'
import { rootCause } from '../../src/errors'
import { scriptedJudge } from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf, scoreWith } from './helpers'

test('scriptedJudge answers call i with entry i, objects as JSON, and logs every request', async () => {
  const judge = scriptedJudge([{ score: 0.1 }, '{"score": 0.2}'])
  const scorer = scoreWith(judge)
  expect((await scorer.run({ output: 'a' })).score).toBe(0.1)
  expect((await scorer.run({ output: 'b' })).score).toBe(0.2)
  expect(judge.id).toBe('scripted-judge')
  expect(judge.requests.map((request) => request.prompt.split('\n')[0])).toEqual([
    'Score this answer: a',
    'Score this answer: b',
  ])
})

test('scriptedJudge answers from a function of the request and its index', async () => {
  const judge = scriptedJudge(
    (request, index) => ({ score: request.prompt.includes('good') ? 1 : index }),
    {
      id: 'fn-judge',
    },
  )
  const result = await scoreWith(judge).run({ output: 'good' })
  expect(result.score).toBe(1)
  expect(result.judgeCalls[0]).toMatchObject({
    model: 'fn-judge',
    source: 'live',
    modelCallCount: 1,
  })
})

test('an Error in the script is thrown by the judge, and a spent script says so', async () => {
  const judge = scriptedJudge([new Error('provider down')])
  const thrown = await rejectionOf(scoreWith(judge).run({ output: 'x' }))
  expect((rootCause(thrown) as Error).message).toBe(
    linked(
      '[rubricate] The judge model "scripted-judge" failed: provider down. Fix the JudgeModel\'s complete() function, or check the provider it calls.',
      'judge-request',
    ),
  )
  const spent = await rejectionOf(scoreWith(judge).run({ output: 'x' }))
  expect((rootCause(spent) as Error).message).toBe(
    linked(
      '[rubricate] The judge model "scripted-judge" failed: scriptedJudge() got call #2, but its script has only 1 reply. Add replies to the script, or pass a function. Fix the JudgeModel\'s complete() function, or check the provider it calls.',
      'judge-request',
    ),
  )
})
