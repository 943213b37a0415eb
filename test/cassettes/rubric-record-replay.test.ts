import { afterEach, expect, test } from 'vitest'
import { configureRubricate, createRubricScorer, RUBRIC_PROMPT_VERSION } from '../../src'
import { rootCause } from '../../src/errors'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { judgeBy } from '../support/rubric-judge'
import { entriesUnder, testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const RUBRIC = `
  - Acknowledges the double charge
  - Explains how the refund will be processed
  - (optional) Gives a timeframe for the refund
`
const FILE = 'test/cassettes/rubric-record-replay.test.ts'

function judgeRefund(judge: object, output: string, samples = 1) {
  return withCallContext({ test: testIn('answers a refund question', FILE) }, () =>
    createRubricScorer({ judge: judge as never, criteria: RUBRIC, options: { samples } }).run({
      input: 'I was charged twice, can I get a refund?',
      output,
    }),
  )
}

test('a rubric run recorded against a live judge replays with identical verdicts and no request', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: judgeBy((text) => !text.includes('timeframe'), 'Helpful.'),
  })
  const judge = { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' }
  const output = 'Sorry for the double charge; we will refund the second payment to your card.'
  const recorded = await judgeRefund(judge, output, 3)
  expect(server.requests).toHaveLength(3)
  expect(recorded.judgeCalls.map((call) => call.source)).toEqual([
    'recorded',
    'recorded',
    'recorded',
  ])
  const entries = await entriesUnder(folder.dir)
  expect(entries).toHaveLength(3)
  expect(entries.every((entry) => entry.promptVersion === RUBRIC_PROMPT_VERSION)).toBe(true)
  await server.close()

  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await judgeRefund(judge, output, 3)
  expect(replayed.verdicts).toEqual(recorded.verdicts)
  expect(replayed.passed).toBe(recorded.passed)
  expect(replayed.score).toBe(recorded.score)
  expect(replayed.reason).toBe(recorded.reason)
  expect(replayed.judgeCalls.map((call) => call.source)).toEqual([
    'replayed',
    'replayed',
    'replayed',
  ])
})

test('with CI=true, a changed output misses with the path that differs, naming the test, and no request', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeBy(() => true) })
  const judge = { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' }
  await judgeRefund(judge, 'We will refund you.')
  configureRubricate({ cassettes: { mode: undefined } })
  process.env.CI = 'true'
  server.clearRequests()
  const error = rootCause(
    await rejectionOf(judgeRefund(judge, 'We will refund you within 5 days.')),
  )
  expect(server.requests).toHaveLength(0)
  expect(error).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
  const message = (error as Error).message
  expect(message).toContain(
    'cassettes are in replay mode (CI is set), so no network call was made.',
  )
  expect(message).toContain(`  test:     ${FILE} > answers a refund question\n`)
  expect(message).toContain('  differs:  messages[1].content\n')
  expect(message).toContain(
    `RUBRICATE_CASSETTES=auto npx vitest run ${FILE} -t "answers a refund question"`,
  )
})
