// The matchers with the real rubric scorer, the real openai SDK and a fake judge on loopback.
import { getEventListeners } from 'node:events'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { configureRubricate, createRubricScorer, resetRubricateConfig } from '../../src'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'

expect.extend({ toSatisfyRubric, toPassScorer })

let server: FakeOpenAI

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      JSON.stringify(request.body).includes('JUDGE_401')
        ? fakeReply.status(401, { message: 'Incorrect API key provided.' })
        : JSON.stringify(request.body).includes('JUDGE_HANGS')
          ? fakeReply.hang()
          : keywordJudge(request),
  })
  configureRubricate({
    judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test-key', maxRetries: 0 },
    cassettes: { mode: 'off' },
  })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

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

const rubric = `
  - Mentions refund
  - Mentions sorry
  - (optional) Mentions days
`

test('a satisfied text rubric passes, with one judge request', async () => {
  server.clearRequests()
  await expect('sorry, your refund is on its way').toSatisfyRubric(rubric, { input: 'Refund?' })
  expect(server.requests).toHaveLength(1)
  expect(server.requests[0]?.body.messages.at(-1).content).toContain('Refund?')
})

test('an unmet text rubric fails with the judge’s reasoning, the model, live and the tokens', async () => {
  const error = await failureOf(expect('your refund is on its way').toSatisfyRubric(rubric))
  expect(error.message).toMatch(
    new RegExp(
      `^${escapeRegExp(`expect(output).toSatisfyRubric(criteria)

Rubric not satisfied: 1 of 2 required criteria unmet.

  ✓ [required] Mentions refund
      → The output says "refund".
  ✗ [required] Mentions sorry
      → The output never says "sorry".
  ○ [optional] Mentions days
      → The output never says "days".

Output: "your refund is on its way"
Judge: gpt-judge · live · `)}[\\d,]+ tokens$`,
    ),
  )
})

test('.not passes when a required criterion is unmet', async () => {
  await expect('nothing useful').not.toSatisfyRubric(rubric)
})

test('a judge error fails toSatisfyRubric and .not.toSatisfyRubric with its code and message', async () => {
  for (const assertion of [
    () => expect('JUDGE_401').toSatisfyRubric('- Mentions refund'),
    () => expect('JUDGE_401').not.toSatisfyRubric('- Mentions refund'),
  ]) {
    const error = await failureOf(assertion())
    expect(error.name).toBe('JudgeRequestError')
    expect(error.message).toContain(
      'This assertion could not be decided, so it fails with or without .not (RUBRICATE_JUDGE_REQUEST):\n[rubricate]',
    )
    expect(error.message).toContain('401')
  }
})

test('judge, samples and evaluation options reach the rubric scorer', async () => {
  server.clearRequests()
  await expect('sorry, refund').toSatisfyRubric('- Mentions refund\n- Mentions sorry', {
    evaluation: 'separately',
    samples: 3,
  })
  expect(server.requests).toHaveLength(6)
  expect(server.requests.map((r) => r.body.seed).sort()).toEqual([1, 1, 2, 2, 3, 3])
})

test('a judge given at the call site wins', async () => {
  const other = await startFakeOpenAI({ reply: keywordJudge })
  try {
    await expect('refund').toSatisfyRubric('- Mentions refund', {
      judge: { model: 'gpt-other', baseURL: other.baseURL, apiKey: 'sk-other' },
    })
    expect(other.requests).toHaveLength(1)
    expect(other.requests[0]?.body.model).toBe('gpt-other')
  } finally {
    await other.close()
  }
})

test('a rubric asserted again follows the judge configured in between', async () => {
  server.clearRequests()
  await expect('sorry, refund').toSatisfyRubric('- Mentions refund\n- Mentions sorry')
  configureRubricate({
    judge: { model: 'gpt-judge-2', baseURL: server.baseURL, apiKey: 'sk-test-key', maxRetries: 0 },
  })
  try {
    await expect('sorry, refund').toSatisfyRubric('- Mentions refund\n- Mentions sorry')
  } finally {
    configureRubricate({
      judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test-key', maxRetries: 0 },
    })
  }
  expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-judge', 'gpt-judge-2'])
})

test('an assertion with many judge calls leaves no listener on the test signal and raises no warning', async ({
  signal,
}) => {
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(warning.name)
  process.on('warning', onWarning)
  const before = getEventListeners(signal, 'abort').length
  try {
    server.clearRequests()
    await expect('sorry, refund in 3 days').toSatisfyRubric(rubric, {
      evaluation: 'separately',
      samples: 5,
    })
    expect(server.requests).toHaveLength(15)
    expect(getEventListeners(signal, 'abort')).toHaveLength(before)
    // Node reports a listener leak on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  expect(warnings).toEqual([])
})

test('a rubric scorer works with toPassScorer, passing on its passed', async () => {
  const scorer = createRubricScorer({ criteria: '- Mentions refund', options: { scale: 10 } })
  await expect('refund issued').toPassScorer(scorer)
  const error = await failureOf(expect('nothing').toPassScorer(scorer))
  expect(error.message).toContain('Scorer "rubric-scorer" did not pass (score 0).')
})

test('a rubric scorer without criteria and no run-time rubric is a usage error, not a pass', async () => {
  const error = await failureOf(expect('anything').toPassScorer(createRubricScorer()))
  expect(error.message).toContain(
    '(RUBRICATE_USAGE):\n[rubricate] toPassScorer(): the rubric scorer',
  )
})

test('an empty or duplicate criterion is a usage error named after the matcher', async () => {
  const error = await failureOf(expect('x').toSatisfyRubric('- Mentions a\n- Mentions a'))
  expect(error.message).toContain('toSatisfyRubric() criteria')
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

test("the test's abort signal reaches the judge and stops a call that hangs", async () => {
  // The matcher's `this`, taken from a real assertion, with a test whose signal we control.
  let state: any
  expect.extend({
    captureState(this: unknown) {
      state = this
      return { pass: true, message: () => '' }
    },
  })
  ;(expect(0) as any).captureState()
  const controller = new AbortController()
  const task = {
    id: 't1',
    name: 'hangs',
    file: { filepath: '/project/hang.test.ts' },
    meta: {},
    context: { signal: controller.signal, onTestFinished: () => {} },
  }
  const assertion = toSatisfyRubric.call(
    { ...state, isNot: false, task },
    'JUDGE_HANGS',
    '- Mentions refund',
  )
  setTimeout(() => controller.abort(new Error('Test timed out')), 50)
  const error = await assertion.then(
    () => undefined,
    (reason: Error) => reason,
  )
  expect((error as Error & { code?: string })?.code).toBe('RUBRICATE_JUDGE_REQUEST')
  expect(stripVTControlCharacters(error?.message ?? '')).toContain(
    '[rubricate] The call to the judge "gpt-judge" was aborted before it finished (for example by the test timeout).',
  )
})
