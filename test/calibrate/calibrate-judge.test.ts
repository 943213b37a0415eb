// calibrateJudge against a fake judge on loopback, through the real openai SDK and the cassettes.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { calibrateJudge, configureRubricate, type LabelledExample, onRecord } from '../../src'
import { rootCause } from '../../src/errors'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from '../cassettes/support'
import { rejectionOf } from '../judge/helpers'
import { judgeBy } from '../support/rubric-judge'
import { tempDir } from '../support/temp-dir'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

// The fake judge says "Mentions X" is met when the output contains X, and it is fooled by
// "not X", which the labels catch: a false pass.
const byKeyword = judgeBy((text, request) => {
  const wanted = text.replace(/^Mentions /, '')
  const prompt: string = request.body.messages.at(-1).content
  const output = /Output to grade[^\n]*\n`{3,}\n([\s\S]*?)\n`{3,}/.exec(prompt)?.[1] ?? ''
  const satisfied = output.includes(wanted)
  return {
    satisfied,
    reasoning: satisfied ? `The output says "${wanted}".` : `The output never says "${wanted}".`,
  }
})

const LABELS: LabelledExample[] = [
  { output: 'sorry, refund on its way', criterion: 'Mentions refund', label: true },
  { output: 'no refund for you', criterion: 'Mentions refund', label: false, note: 'refuses' },
  { output: 'we will pay you back', criterion: 'Mentions refund', label: true },
  { output: 'hello', criterion: 'Mentions refund', label: false },
  {
    output: 'sorry about that',
    input: 'Why was I charged twice?',
    criteria: [
      { criterion: 'Mentions sorry', label: true },
      { criterion: '(optional) Mentions days', label: false },
    ],
    labeler: 'ana',
  },
]

async function start() {
  server = await startFakeOpenAI({ reply: byKeyword })
  return { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' }
}

test('calibrateJudge counts agreement per criterion and overall, worst disagreements first', async () => {
  const judge = await start()
  const result = await calibrateJudge({ judge, labels: LABELS })
  expect(result.judge).toBe('gpt-judge')
  expect(result.source).toBe('labels')
  expect(result.examples).toBe(5)
  expect(result.samples).toBe(1)
  // 5 rows, one of them with two criteria: 5 judge calls (one per row), 6 judgements.
  expect(server?.requests).toHaveLength(5)
  expect(result.judgeCalls).toHaveLength(5)
  expect(result.overall.n).toBe(6)
  expect(result.overall.counts).toEqual({ truePass: 2, falsePass: 1, falseFail: 1, trueFail: 2 })
  // p_o = 4/6, p_e = 0.5 × 0.5 + 0.5 × 0.5 = 0.5, κ = (2/3 − 1/2) / (1/2) = 1/3
  expect(result.overall.kappa).toBeCloseTo(1 / 3, 10)
  expect(result.overall.falsePass).toMatchObject({ count: 1, n: 3 })
  expect(result.criteria.map((c) => [c.criterion, c.required, c.metrics.n])).toEqual([
    ['Mentions refund', true, 4],
    ['Mentions sorry', true, 1],
    ['Mentions days', false, 1],
  ])
  expect(result.criteria[0]?.metrics.kappa).toBe(0)
  expect(result.disagreements).toEqual([
    {
      where: 'labels item 2',
      criterion: 'Mentions refund',
      required: true,
      kind: 'false pass',
      label: false,
      verdict: true,
      reasoning: 'The output says "refund".',
      output: 'no refund for you',
      note: 'refuses',
    },
    {
      where: 'labels item 3',
      criterion: 'Mentions refund',
      required: true,
      kind: 'false fail',
      label: true,
      verdict: false,
      reasoning: 'The output never says "refund".',
      output: 'we will pay you back',
    },
  ])
  // The task reaches the judge, as toSatisfyRubric's input does.
  expect(JSON.stringify(server?.requests[4]?.body)).toContain('Why was I charged twice?')
})

test('a calibration recorded once replays offline with the same result and no request', async () => {
  configureRubricate({ cassettes: { mode: 'auto', dir: folder.dir } })
  const judge = await start()
  const dir = folder.dir
  const file = join(tempDir('rubricate-labels-'), 'labels.jsonl')
  await writeFile(file, `${LABELS.map((row) => JSON.stringify(row)).join('\n')}\n`)
  const recorded = await calibrateJudge({ judge, labels: file })
  expect(recorded.judgeCalls.every((call) => call.source === 'recorded')).toBe(true)
  expect(await entriesUnder(dir)).toHaveLength(5)
  await server?.close()
  server = undefined

  configureRubricate({ cassettes: { mode: 'replay', dir } })
  const replayed = await calibrateJudge({ judge, labels: file })
  expect(replayed.judgeCalls.map((call) => call.source)).toEqual(Array(5).fill('replayed'))
  const { judgeCalls: _a, ...recordedRest } = recorded
  const { judgeCalls: _b, ...replayedRest } = replayed
  expect(replayedRest).toEqual(recordedRest)
  expect(replayed.disagreements[0]?.where).toMatch(/labels\.jsonl line 2$/)
})

test('with samples > 1 every example is judged that many times and self-agreement is reported', async () => {
  // Seed 2 flips every verdict: a 2-to-1 majority everywhere, never unanimous.
  server = await startFakeOpenAI({
    reply: (request) => {
      const reply = byKeyword(request) as { criteria: Record<string, { satisfied: boolean }> }
      if (request.body.seed === 2)
        for (const v of Object.values(reply.criteria)) v.satisfied = !v.satisfied
      return reply
    },
  })
  const judge = { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' }
  const result = await calibrateJudge({ judge, labels: LABELS.slice(0, 2), samples: 3 })
  expect(server.requests).toHaveLength(6)
  expect(result.samples).toBe(3)
  expect(result.selfAgreement?.unanimous).toMatchObject({ count: 0, n: 2, value: 0 })
  // 2 of 3 agree: 1 agreeing pair of 3.
  expect(result.selfAgreement?.pairwise).toBeCloseTo(1 / 3, 10)
  expect(result.disagreements[0]?.agreement).toEqual({ satisfied: 2, total: 3 })
})

test('unknown options, a bad samples value and a bad row are usage errors before any judge call', async () => {
  const judge = await start()
  const unknown = await rejectionOf(calibrateJudge({ judge, labels: LABELS, sample: 3 } as never))
  expect(unknown.message).toContain('calibrateJudge() options got an unknown option "sample"')
  const samples = await rejectionOf(calibrateJudge({ judge, labels: LABELS, samples: 0 }))
  expect(samples.message).toContain('calibrateJudge() option "samples" must be a positive integer')
  const row = await rejectionOf(
    calibrateJudge({ judge, labels: [{ output: 'x', criterion: 'A', label: 'yes' as never }] }),
  )
  expect(row.message).toContain('labels item 1: "label" must be true (met) or false (unmet)')
  expect(server?.requests).toHaveLength(0)
})

test('a judge error rejects the calibration with its code, and no new example is started after it', async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      JSON.stringify(request.body).includes('hello')
        ? fakeReply.status(401, { message: 'Incorrect API key provided.' })
        : byKeyword(request),
  })
  const judge = { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 }
  const rows: LabelledExample[] = [
    { output: 'hello', criterion: 'Mentions refund', label: false },
    ...Array.from({ length: 20 }, (_, i) => ({
      output: `refund ${i}`,
      criterion: 'Mentions refund',
      label: true,
    })),
  ]
  const error = rootCause(await rejectionOf(calibrateJudge({ judge, labels: rows })))
  expect(error).toMatchObject({ code: 'RUBRICATE_JUDGE_REQUEST' })
  // Long enough for the examples in flight to finish and the next ones to start, were they to.
  await new Promise((done) => setTimeout(done, 300))
  // The pool of 8 had started at most 8 examples when the first one failed.
  expect(server.requests.length).toBeLessThanOrEqual(8)
})

test('inside a test, calibrateJudge leaves no scorer record per example and its many calls add one listener to the test’s signal', async () => {
  const judge = await start()
  const records: unknown[] = []
  const stop = onRecord((record) => records.push(record))
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)
  process.on('warning', onWarning)
  const test = new AbortController()
  const many = Array.from({ length: 4 }, () => LABELS).flat()
  try {
    const result = await withCallContext({ signal: test.signal }, () =>
      calibrateJudge({ judge, labels: many, samples: 3 }),
    )
    expect(result.examples).toBe(20)
  } finally {
    stop()
    process.off('warning', onWarning)
  }
  // Warnings are emitted on the next tick.
  await new Promise((done) => setImmediate(done))
  expect(records).toEqual([])
  expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning')
})
