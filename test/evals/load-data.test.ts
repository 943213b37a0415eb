// Unit: where an eval's rows come from (a list, a function, a .json, .jsonl or .csv file), and the
// errors that name the file and line when one cannot be read.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { loadRows } from '../../evals/load-data'
import { rowNames } from '../../evals/row-name'
import { tempDir } from '../support/temp-dir'

const dir = tempDir('rubricate-eval-data-')
const testFile = join(dir, 'suite.test.ts')

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}

test('a CSV file keeps commas, doubled quotes, line breaks and blank cells inside quoted fields', async () => {
  const name = file(
    'rows.csv',
    '\uFEFFinput,expected,context\r\n"a, b","say ""hi""",\r\n"two\nlines",x,"c\r\nd"\r\n\r\n',
  )
  expect(await loadRows(name, testFile)).toEqual([
    { input: 'a, b', expected: 'say "hi"', context: '' },
    { input: 'two\nlines', expected: 'x', context: 'c\r\nd' },
  ])
})

test('a CSV row with a cell too many is an error naming the file', async () => {
  const name = file('bad.csv', 'input,expected\na,b,c\n')
  await expect(loadRows(name, testFile)).rejects.toThrow(
    `[rubricate] describeEval() could not parse the data file "${join(dir, 'bad.csv')}" (CSV): Invalid Record Length`,
  )
})

test('a JSONL file gives one row a line, skipping blank lines, and names the line that is not JSON', async () => {
  const good = file('rows.jsonl', '{"input":"a"}\n\n{"input":"b","name":"second"}\n')
  expect(await loadRows(good, testFile)).toEqual([{ input: 'a' }, { input: 'b', name: 'second' }])
  const bad = file('bad.jsonl', '{"input":"a"}\n{"input":\n')
  await expect(loadRows(bad, testFile)).rejects.toThrow(
    `describeEval() could not parse the data file "${join(dir, 'bad.jsonl')}" (line 2):`,
  )
})

test('a JSON file holds a list; a relative path is resolved against the test file, a URL and an absolute path as they are', async () => {
  const name = file('rows.json', '[{"input":1},{"input":2}]')
  const rows = [{ input: 1 }, { input: 2 }]
  expect(await loadRows(`./${name}`, testFile)).toEqual(rows)
  expect(await loadRows(join(dir, name), undefined)).toEqual(rows)
  expect(await loadRows(pathToFileURL(join(dir, name)), undefined)).toEqual(rows)
  file('object.json', '{"input":1}')
  await expect(loadRows('object.json', testFile)).rejects.toThrow(
    'it holds no list of rows at the top level',
  )
})

test('a missing file, another extension, an empty list and a row that is not an object are errors', async () => {
  await expect(loadRows('missing.jsonl', testFile)).rejects.toThrow(
    `[rubricate] describeEval() could not read the data file "${join(dir, 'missing.jsonl')}": ENOENT`,
  )
  await expect(loadRows('rows.yaml', testFile)).rejects.toThrow(
    'its name must end in .json, .jsonl or .csv',
  )
  await expect(loadRows(async () => [], testFile)).rejects.toThrow(
    '[rubricate] describeEval(): the list that "data" returned holds no rows, so there is nothing to evaluate. Add at least one row.',
  )
  await expect(loadRows([{ input: 1 }, 'two'] as never, testFile)).rejects.toThrow(
    '[rubricate] describeEval(): row 2 of "data" is "two", not an object. Each row is an object such as { input, expected?, name? }.',
  )
})

test('rows are named by row.name, else their input on one line shortened to 60 characters, numbered when taken twice', () => {
  expect(
    rowNames([
      { name: '  refund  ', input: 'x' },
      { input: 'Where is\nmy parcel?' },
      { input: 'Where is my parcel?' },
      { input: { question: 'ok?' } },
      { input: 'a'.repeat(80) },
      {},
    ]),
  ).toEqual([
    'refund',
    'Where is my parcel?',
    'Where is my parcel? (2)',
    '{ "question": "ok?" }',
    `${'a'.repeat(59)}…`,
    'row 6',
  ])
})
