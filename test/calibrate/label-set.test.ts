// The labelled-set format: JSONL and JSON, one criterion or several, and errors naming the row.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { loadLabelSet, parseLabelText } from '../../src/calibrate/label-set'
import { runtimeState } from '../../src/runtime/state'
import { rejectionOf } from '../judge/helpers'
import { linked, linkedPattern } from '../support/error-page'
import { tempDir } from '../support/temp-dir'

test('a JSONL row with one criterion and a row with several are read, blank lines skipped', () => {
  const text = [
    '{"output": "Refunded to your card.", "input": "Refund?", "criterion": "Explains how the refund will be processed", "label": true, "labeler": "ana"}',
    '',
    '{"output": "We will look into it.", "criteria": [{"criterion": "Acknowledges the double charge", "label": false, "note": "no mention"}, {"criterion": "(optional) Gives a timeframe for the refund", "label": false}], "note": "vague"}',
  ].join('\n')
  expect(parseLabelText(text, 'labels.jsonl', true)).toEqual([
    {
      where: 'labels.jsonl line 1',
      output: 'Refunded to your card.',
      input: 'Refund?',
      criteria: [
        { description: 'Explains how the refund will be processed', required: true, label: true },
      ],
      labeler: 'ana',
    },
    {
      where: 'labels.jsonl line 3',
      output: 'We will look into it.',
      criteria: [
        {
          description: 'Acknowledges the double charge',
          required: true,
          label: false,
          note: 'no mention',
        },
        { description: 'Gives a timeframe for the refund', required: false, label: false },
      ],
      note: 'vague',
    },
  ])
})

test('a JSON array is read with its items named, and required: false marks an optional criterion', () => {
  const text = JSON.stringify([
    {
      output: { text: 'hi' },
      reference: 'hello',
      criterion: 'Greets',
      label: true,
      required: false,
    },
  ])
  expect(parseLabelText(text, 'labels.json', false)).toEqual([
    {
      where: 'labels.json item 1',
      output: { text: 'hi' },
      reference: 'hello',
      criteria: [{ description: 'Greets', required: false, label: true }],
    },
  ])
})

test.each([
  [
    '{"output": "x", "criterion": "A", "label": "yes"}',
    'line 2: "label" must be true (met) or false (unmet), but is "yes"',
  ],
  [
    '{"output": "x", "criterion": "A"}',
    'line 2: "label" must be true (met) or false (unmet), but is undefined',
  ],
  ['{"criterion": "A", "label": true}', 'line 2: "output" is missing'],
  ['{"output": "x", "label": true}', 'line 2: "criterion" is missing'],
  ['{"output": "x"}', 'line 2: it needs "criterion" and "label", or "criteria"'],
  ['{"output": "x", "criterion": "A", "label": true, "lable": 1}', 'line 2: unknown field "lable"'],
  [
    '{"output": "x", "criterion": "A", "label": true, "criteria": []}',
    'line 2: it has both "criterion" and "criteria"; use one',
  ],
  [
    '{"output": "x", "criteria": [{"criterion": "A", "label": true}, {"criterion": "a", "label": false}]}',
    'line 2: labels.jsonl line 2 lists the criterion "a" twice (item 1 and item 2)',
  ],
  [
    '{"output": "x", "criteria": [{"criterion": "A", "verdict": true}]}',
    'line 2: "criteria" item 1 has an unknown field "verdict"',
  ],
  ['[1, 2]', 'line 2: [1,2] is not an object'],
])('a malformed row is a usage error naming its line: %s', (row, expected) => {
  const text = `{"output": "fine", "criterion": "A", "label": true}\n${row}`
  expect(() => parseLabelText(text, 'labels.jsonl', true)).toThrow(`labels.jsonl ${expected}`)
})

test('a line that is not JSON says which line and what a row looks like', () => {
  expect(() =>
    parseLabelText('{"output": "x", "criterion": "A", "label": true}\n{oops', 'set.jsonl', true),
  ).toThrow(
    linkedPattern(
      /^\[rubricate\] set\.jsonl line 2 is not valid JSON \(.+\)\. Each example is one JSON object, for instance \{"output": "\.\.\.", "criterion": "Gives a timeframe", "label": false\}\.$/,
      'usage',
    ),
  )
})

test('an empty set, a JSON file that is not an array, a missing file and another extension are usage errors', async () => {
  expect(() => parseLabelText('\n\n', 'empty.jsonl', true)).toThrow(
    '[rubricate] The labelled set "empty.jsonl" holds no example',
  )
  expect(() => parseLabelText('{"output": "x"}', 'one.json', false)).toThrow(
    'one.json holds {"output":"x"}; a .json labelled set is an array of examples.',
  )
  const dir = tempDir('rubricate-labels-')
  const missing = await rejectionOf(loadLabelSet(join(dir, 'nope.jsonl')))
  expect(missing).toMatchObject({ code: 'RUBRICATE_USAGE' })
  expect((missing as Error).message).toContain('nope.jsonl": no such file.')
  await writeFile(join(dir, 'labels.csv'), 'output,label\n')
  const csv = await rejectionOf(loadLabelSet(join(dir, 'labels.csv')))
  expect((csv as Error).message).toContain('is neither .jsonl nor .json')
  const notLabels = await rejectionOf(loadLabelSet(42 as never))
  expect((notLabels as Error).message).toBe(
    linked(
      '[rubricate] calibrateJudge() option "labels" is 42. Give the path of a .jsonl or .json labelled set, or an array of labelled examples.',
      'usage',
    ),
  )
})

test('a file is read by its extension and an array is taken as it is', async () => {
  const dir = tempDir('rubricate-labels-')
  const file = join(dir, 'labels.jsonl')
  await writeFile(file, '{"output": "x", "criterion": "A", "label": true}\n')
  const set = await loadLabelSet(file)
  expect(set.examples).toHaveLength(1)
  expect(set.examples[0]?.where.endsWith('labels.jsonl line 1')).toBe(true)
  const given = await loadLabelSet([{ output: 'y', criterion: 'B', label: false }])
  expect(given.source).toBe('labels')
  expect(given.examples[0]?.where).toBe('labels item 1')
})

test('inside a test a relative path is read from the test file’s folder; one that only exists from the project root is a usage error that names the path to write', async () => {
  const root = tempDir('rubricate-labels-root-')
  await mkdir(join(root, 'evals', 'judge'), { recursive: true })
  await writeFile(
    join(root, 'evals', 'labels.jsonl'),
    '{"output": "x", "criterion": "A", "label": true}\n',
  )
  const testFile = join(root, 'evals', 'judge', 'calibration.test.ts')
  runtimeState().run.root = root
  try {
    const beside = await loadLabelSet('../labels.jsonl', testFile)
    expect(beside.examples).toHaveLength(1)
    expect(beside.source).toBe('../labels.jsonl')
    // Outside a test (the CLI): from the project root, as before.
    expect((await loadLabelSet('evals/labels.jsonl')).examples).toHaveLength(1)
    const old = await rejectionOf(loadLabelSet('evals/labels.jsonl', testFile))
    expect(old).toMatchObject({ code: 'RUBRICATE_USAGE' })
    expect((old as Error).message).toBe(
      linked(
        '[rubricate] Could not read the labelled set "evals/labels.jsonl": there is no such file next to the test file "evals/judge/calibration.test.ts". Inside a test a relative path is resolved against the test file\'s folder, as describeEval\'s data is; the file exists relative to the project root, where older versions looked: write "../labels.jsonl". Or give an absolute path (e.g. new URL(\'./labels.jsonl\', import.meta.url).pathname).',
        'usage',
      ),
    )
  } finally {
    runtimeState().run.root = undefined
  }
})
