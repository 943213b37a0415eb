// runUntilComplete with the real rubric scorer, the real openai SDK and a fake judge on loopback.
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  configureRubricate,
  createRubricScorer,
  onRecord,
  type RubricateRecord,
  resetRubricateConfig,
  runUntilComplete,
} from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'

let server: FakeOpenAI

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: keywordJudge })
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test-key', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

const scorer = createRubricScorer({ criteria: '- Mentions refund\n- Mentions sorry' })

test('an agent that fixes its output after the feedback completes on iteration 2, told the unmet criterion and why', async () => {
  const feedbacks: (string | undefined)[] = []
  const records: RubricateRecord[] = []
  const unsubscribe = onRecord((record) => records.push(record))
  const result = await runUntilComplete(
    ({ feedback }) => {
      feedbacks.push(feedback)
      return feedback ? 'sorry, your refund is on its way' : 'your refund is on its way'
    },
    { scorers: [scorer], maxSteps: 3, input: 'I was charged twice' },
  )
  unsubscribe()
  expect(records.at(-1)?.iterations?.map((i) => i.scorers[0]?.unmet)).toEqual([
    ['Mentions sorry'],
    undefined,
  ])
  expect(result.complete).toBe(true)
  expect(result.iterations).toHaveLength(2)
  expect(feedbacks[0]).toBeUndefined()
  expect(feedbacks[1]).toContain(
    '❌ [required] Mentions sorry\n   → The output never says "sorry".',
  )
  expect(result.iterations[0]?.check.scorers[0]).toMatchObject({
    id: 'rubric-scorer',
    passed: false,
    errored: false,
  })
  expect(server.requests.at(-1)?.body.messages.at(-1).content).toContain('I was charged twice')
})

test('with maxSteps 1 the same agent ends incomplete', async () => {
  const result = await runUntilComplete(({ feedback }) => (feedback ? 'sorry, refund' : 'refund'), {
    scorers: [scorer],
    maxSteps: 1,
  })
  expect(result.complete).toBe(false)
  expect(result.feedback).toContain('Mentions sorry')
})

test('a judge failure makes the scorer errored, never a pass', async () => {
  const broken = createRubricScorer({
    judge: { model: 'gpt-judge', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-x', maxRetries: 0 },
    criteria: '- Mentions refund',
  })
  const result = await runUntilComplete(() => 'refund', { scorers: [broken], maxSteps: 1 })
  expect(result.complete).toBe(false)
  expect(result.iterations[0]?.check.scorers[0]).toMatchObject({ passed: false, errored: true })
  expect(result.feedback).toMatch(
    /^Scorer "rubric-scorer" threw an error, so the output could not be checked: /,
  )
})
