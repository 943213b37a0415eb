// toAgreeWithLabels with the real rubric scorer, the real openai SDK and a fake judge on loopback.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { toAgreeWithLabels } from '../../matchers'
import { configureRubricate } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from '../cassettes/support'
import { keywordJudge } from '../support/keyword-judge'
import { tempDir } from '../support/temp-dir'

expect.extend({ toAgreeWithLabels })

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined
let labels = ''

// keywordJudge says "Mentions X" is met when the output contains X: fooled by "no refund" (a false
// pass) and blind to "pay you back" (a false fail).
const ROWS = [
  { output: 'sorry, your refund is on its way', criterion: 'Mentions refund', label: true },
  { output: 'no refund for you', criterion: 'Mentions refund', label: false, note: 'refuses' },
  { output: 'we will pay you back', criterion: 'Mentions refund', label: true },
  { output: 'hello there', criterion: 'Mentions refund', label: false },
  { output: 'a refund, sorry', criterion: 'Mentions refund', label: true },
  { output: 'goodbye', criterion: 'Mentions refund', label: false },
]

beforeEach(async () => {
  configureRubricate({ cassettes: { mode: 'auto', dir: folder.dir } })
  server = await startFakeOpenAI({ reply: keywordJudge })
  labels = join(tempDir('rubricate-labels-'), 'labels.jsonl')
  await writeFile(labels, `${ROWS.map((row) => JSON.stringify(row)).join('\n')}\n`)
})

afterEach(async () => {
  await server?.close()
  server = undefined
})

function judge() {
  return { model: 'gpt-judge', baseURL: server?.baseURL ?? '', apiKey: 'sk-test-key' }
}

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

test('a judge that meets its thresholds passes and leaves a calibration record', async ({
  task,
}) => {
  await expect(judge()).toAgreeWithLabels(labels, { minAccuracy: 0.6, maxFalsePass: 0.34 })
  expect(server?.requests).toHaveLength(6)
  const [record] = task.meta.rubricate ?? []
  expect(record).toMatchObject({
    kind: 'calibration',
    status: 'pass',
    outputPreview: 'gpt-judge',
    calibration: {
      judge: 'gpt-judge',
      examples: 6,
      samples: 1,
      thresholds: { minAccuracy: 0.6, maxFalsePass: 0.34 },
      failures: [],
      disagreementCount: 2,
      overall: { n: 6, counts: { truePass: 2, falsePass: 1, falseFail: 1, trueFail: 2 } },
    },
  })
  expect(record?.judgeCalls).toHaveLength(6)
  // The judge object (and its key) never reaches the record.
  expect(JSON.stringify(record)).not.toContain('sk-test-key')
})

test('a judge below its thresholds fails with what it missed, the table and the worst disagreements', async () => {
  const error = await failureOf(
    expect(judge()).toAgreeWithLabels(labels, { minKappa: 0.6, maxFalsePass: 0.2 }),
  )
  expect(
    error.message.replaceAll(labels, '<labels>').replace(/[\d,]+ tokens$/, 'N tokens'),
  ).toBe(`expect(judge).toAgreeWithLabels(labels)

The judge "gpt-judge" does not agree well enough with the labels in "<labels>":
  - κ 0.33 is below minKappa 0.6
  - the false-pass rate 0.33 (1 of 3 judgements labelled unmet were judged met) is above maxFalsePass 0.2

Judge "gpt-judge" against the labels in "<labels>": 6 examples, 6 labelled judgements.

criterion        n  accuracy           κ     false pass               false fail
Mentions refund  6  0.67 [0.30, 0.90]  0.33  0.33 (1/3) [0.06, 0.79]  0.33 (1/3) [0.06, 0.79]

Worst disagreements (2 of 2):
  ✗ false pass · <labels> line 2 · Mentions refund
      labelled unmet, judged met: The output says "refund".
      output: "no refund for you"
      note: refuses
  ✗ false fail · <labels> line 3 · Mentions refund
      labelled met, judged unmet: The output never says "refund".
      output: "we will pay you back"

Judge: gpt-judge · recorded · N tokens`)
})

test('a calibration recorded once replays in CI mode with no request and the same failure', async () => {
  const options = { minKappa: 0.6 }
  const first = await failureOf(expect(judge()).toAgreeWithLabels(labels, options))
  expect(server?.requests).toHaveLength(6)
  expect(await entriesUnder(folder.dir)).toHaveLength(6)
  server?.clearRequests()
  configureRubricate({ cassettes: { mode: 'replay', dir: folder.dir } })
  const second = await failureOf(expect(judge()).toAgreeWithLabels(labels, options))
  expect(server?.requests).toHaveLength(0)
  const body = (error: Error) => error.message.replace(/\nJudge: .*$/, '')
  expect(body(second)).toBe(body(first))
  expect(second.message).toMatch(/\nJudge: gpt-judge · replayed · [\d,]+ tokens$/)
})

test('with no threshold, with .not, or with a threshold out of range it fails as a usage error', async () => {
  const cases: [() => Promise<void>, string][] = [
    [
      () => expect(judge()).toAgreeWithLabels(labels),
      'toAgreeWithLabels() needs at least one of minKappa, maxFalsePass, maxFalseFail and minAccuracy',
    ],
    [
      () => expect(judge()).not.toAgreeWithLabels(labels, { minKappa: 0.5 }),
      'toAgreeWithLabels() has no .not form',
    ],
    [
      () => expect(judge()).toAgreeWithLabels(labels, { maxFalsePass: 2 }),
      'toAgreeWithLabels() option "maxFalsePass" must be a number from 0 to 1, but is 2.',
    ],
    [
      () => expect(judge()).toAgreeWithLabels(labels, { minKapa: 0.5 } as never),
      'toAgreeWithLabels() options got an unknown option "minKapa"',
    ],
    [
      () => expect(42).toAgreeWithLabels(labels, { minKappa: 0.5 }),
      'expect(judge).toAgreeWithLabels() expects a judge as the value under test',
    ],
  ]
  for (const [assertion, text] of cases) {
    const error = await failureOf(assertion())
    expect(error.message).toContain('(RUBRICATE_USAGE)')
    expect(error.message).toContain(text)
  }
  expect(server?.requests).toHaveLength(0)
})

test('a malformed labelled set fails naming the line, before any judge call', async () => {
  await writeFile(
    labels,
    '{"output": "x", "criterion": "Mentions refund", "label": true}\n{"output": "y"}\n',
  )
  const error = await failureOf(expect(judge()).toAgreeWithLabels(labels, { minKappa: 0.5 }))
  expect(error.message).toContain(
    `${labels} line 2: it needs "criterion" and "label", or "criteria"`,
  )
  expect(server?.requests).toHaveLength(0)
})
