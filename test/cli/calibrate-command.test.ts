// `rubricate calibrate` against a fake judge on loopback, through the real openai SDK and cassettes.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from '../cassettes/support'
import { linked } from '../support/error-page'
import { keywordJudge } from '../support/keyword-judge'
import { tempDir } from '../support/temp-dir'

useCassetteFolder()
let server: FakeOpenAI | undefined
let cwd = ''
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })

// "gpt-judge" decides by keyword; "gpt-cheap" passes everything it is shown.
function judges(request: FakeRequest) {
  const reply = keywordJudge(request) as {
    criteria: Record<string, { reasoning: string; satisfied: boolean }>
  }
  if (request.body.model === 'gpt-cheap') {
    for (const verdict of Object.values(reply.criteria)) {
      verdict.satisfied = true
      verdict.reasoning = 'Looks fine.'
    }
  }
  return reply
}

const ROWS = [
  { output: 'sorry, your refund is on its way', criterion: 'Mentions refund', label: true },
  { output: 'no refund for you', criterion: 'Mentions refund', label: false },
  { output: 'we will pay you back', criterion: 'Mentions refund', label: true },
  {
    output: 'hello there',
    criteria: [
      { criterion: 'Mentions refund', label: false },
      { criterion: 'Mentions hello', label: true },
    ],
  },
]

beforeEach(async () => {
  server = await startFakeOpenAI({ reply: judges })
  process.env.OPENAI_BASE_URL = server.baseURL
  process.env.OPENAI_API_KEY = 'sk-test-key'
  cwd = tempDir('rubricate-calibrate-')
  out = []
  err = []
  await writeFile(join(cwd, 'labels.jsonl'), `${ROWS.map((r) => JSON.stringify(r)).join('\n')}\n`)
})

afterEach(async () => {
  delete process.env.OPENAI_BASE_URL
  delete process.env.OPENAI_API_KEY
  delete process.env.RUBRICATE_JUDGE
  await server?.close()
  server = undefined
})

const TRUSTED = `Judge "gpt-judge" against the labels in "labels.jsonl": 4 examples, 5 labelled judgements.

criterion        n  accuracy           κ     false pass               false fail
Mentions refund  4  0.50 [0.15, 0.85]  0.00  0.50 (1/2) [0.09, 0.91]  0.50 (1/2) [0.09, 0.91]
Mentions hello   1  1.00 [0.21, 1.00]  –     – (0/0)                  0.00 (0/1) [0.00, 0.79]
all criteria     5  0.60 [0.23, 0.88]  0.17  0.50 (1/2) [0.09, 0.91]  0.33 (1/3) [0.06, 0.79]

κ is undefined for "Mentions hello": every label and every verdict is "met", so agreement by chance is 1.

Worst disagreements (2 of 2):
  ✗ false pass · labels.jsonl line 2 · Mentions refund
      labelled unmet, judged met: The output says "refund".
      output: "no refund for you"
  ✗ false fail · labels.jsonl line 3 · Mentions refund
      labelled met, judged unmet: The output never says "refund".
      output: "we will pay you back"
`

test('calibrate prints the table and the disagreements, and a second run replays with no request', async () => {
  expect(await run('calibrate', 'labels.jsonl', '--judge', 'gpt-judge')).toBe(0)
  expect(err).toEqual([])
  expect(out).toEqual([
    `${TRUSTED}\nJudge calls: 0 replayed, 4 live (all recorded into cassettes).`,
  ])
  expect(server?.requests).toHaveLength(4)
  expect(server?.requests.every((r) => r.body.model === 'gpt-judge')).toBe(true)
  expect(await entriesUnder(join(cwd, '__cassettes__'))).toHaveLength(4)

  server?.clearRequests()
  out = []
  process.env.CI = 'true'
  expect(await run('calibrate', 'labels.jsonl', '--judge', 'openai/gpt-judge')).toBe(0)
  expect(out).toEqual([`${TRUSTED}\nJudge calls: 4 replayed, 0 live.`])
  expect(server?.requests).toHaveLength(0)
})

test('--compare prints the second judge and how it agrees with the first', async () => {
  process.env.RUBRICATE_JUDGE = 'openai/gpt-judge'
  expect(
    await run('calibrate', 'labels.jsonl', '--compare', 'gpt-cheap', '--dir', 'cassettes'),
  ).toBe(0)
  expect(out).toHaveLength(1)
  // κ of the cheap judge is 0: it passes everything (p_o = 3/5 = p_e).
  expect(out[0]).toBe(`${TRUSTED}\nJudge calls: 0 replayed, 4 live (all recorded into cassettes).

Judge "gpt-cheap" against the labels in "labels.jsonl": 4 examples, 5 labelled judgements.

criterion        n  accuracy           κ     false pass               false fail
Mentions refund  4  0.50 [0.15, 0.85]  0.00  1.00 (2/2) [0.34, 1.00]  0.00 (0/2) [0.00, 0.66]
Mentions hello   1  1.00 [0.21, 1.00]  –     – (0/0)                  0.00 (0/1) [0.00, 0.79]
all criteria     5  0.60 [0.23, 0.88]  0.00  1.00 (2/2) [0.34, 1.00]  0.00 (0/3) [0.00, 0.56]

κ is undefined for "Mentions hello": every label and every verdict is "met", so agreement by chance is 1.

Worst disagreements (2 of 2):
  ✗ false pass · labels.jsonl line 2 · Mentions refund
      labelled unmet, judged met: Looks fine.
      output: "no refund for you"
  ✗ false pass · labels.jsonl line 4 · Mentions refund
      labelled unmet, judged met: Looks fine.
      output: "hello there"

Judge calls: 0 replayed, 4 live (all recorded into cassettes).

Agreement of "gpt-cheap" with "gpt-judge" on the same judgements:
  agreement 0.60 [0.23, 0.88] · κ 0.00 · 5 judgements
  "gpt-cheap" passes where "gpt-judge" fails: 2
  "gpt-cheap" fails where "gpt-judge" passes: 0`)
  expect(await entriesUnder(join(cwd, 'cassettes'))).toHaveLength(8)
})

test('--json prints both calibrations and their agreement as JSON', async () => {
  expect(
    await run(
      'calibrate',
      'labels.jsonl',
      '--judge',
      'gpt-judge',
      '--compare',
      'gpt-cheap',
      '--json',
    ),
  ).toBe(0)
  const json = JSON.parse(out[0] ?? '')
  expect(json.calibration).toMatchObject({
    judge: 'gpt-judge',
    source: 'labels.jsonl',
    examples: 4,
    overall: { n: 5, counts: { truePass: 2, falsePass: 1, falseFail: 1, trueFail: 1 } },
  })
  expect(json.compare.judge).toBe('gpt-cheap')
  expect(json.agreement).toMatchObject({
    n: 5,
    kappa: 0,
    counts: { truePass: 3, falsePass: 2, falseFail: 0, trueFail: 0 },
  })
})

test('without a judge, a labelled set, or with an unknown option, it says what to do and exits 2; a missing labelled set exits 1', async () => {
  expect(await run('calibrate', 'labels.jsonl')).toBe(2)
  expect(err.pop()).toBe(
    linked(
      '[rubricate] rubricate calibrate needs a judge: pass --judge <model> (for instance --judge gpt-4.1-mini), or set RUBRICATE_JUDGE=openai/gpt-4.1-mini.',
      'usage',
    ),
  )
  expect(await run('calibrate', '--judge', 'gpt-judge')).toBe(2)
  expect(err.pop()).toBe(
    linked(
      '[rubricate] "rubricate calibrate" needs the path of a labelled set (.jsonl or .json). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  )
  expect(await run('calibrate', 'labels.jsonl', '--judge', 'gpt-judge', '--min-kappa', '1')).toBe(2)
  expect(err.pop()).toContain('"rubricate calibrate" has no option "--min-kappa"')
  expect(await run('calibrate', 'missing.jsonl', '--judge', 'gpt-judge')).toBe(1)
  expect(err.pop()).toContain('Could not read the labelled set "missing.jsonl": no such file.')
  expect(await run('calibrate', '--help')).toBe(0)
  expect(out.pop()).toContain('Usage: rubricate calibrate <labels.jsonl|labels.json> [options]')
  expect(server?.requests).toHaveLength(0)
})
