import { readFile } from 'node:fs/promises'
import { dirname, isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { csvRecords } from '../src/calibrate/csv-records'
import { dataText } from '../src/calibrate/data-text'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { EvalData, EvalRow } from './types'

/**
 * The rows of an eval from its `data`: a list, a function that returns one, or a `.json`
 * (a list), `.jsonl` (one object a line) or `.csv` (a header row, then one row a line) file. A
 * relative path is resolved against the test file's folder, as an import would be.
 * @internal
 */
export async function loadRows<Row extends EvalRow>(
  data: EvalData<Row>,
  testFile: string | undefined,
): Promise<Row[]> {
  if (Array.isArray(data)) return checkRows(data, '"data"')
  if (typeof data === 'function') {
    const rows = await data()
    if (!Array.isArray(rows)) throw new UsageError(messages.evalBadData(rows))
    return checkRows(rows, 'the list that "data" returned')
  }
  if (typeof data === 'string' || data instanceof URL) {
    const file = filePath(data, testFile)
    return checkRows((await readRows(file)) as Row[], `"${file}"`)
  }
  throw new UsageError(messages.evalBadData(data))
}

function filePath(data: string | URL, testFile: string | undefined): string {
  if (data instanceof URL) return fileURLToPath(data)
  if (isAbsolute(data)) return data
  return resolve(testFile ? dirname(testFile) : process.cwd(), data)
}

async function readRows(file: string): Promise<unknown[]> {
  const kind = /\.(json|jsonl|csv)$/i.exec(file)?.[1]?.toLowerCase()
  if (!kind) throw new UsageError(messages.evalDataFileType(file))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(messages.evalDataFileUnreadable(file, (error as Error).message), {
      cause: error,
    })
  }
  // A byte order mark (Excel writes one) is not part of the first field's name.
  text = dataText(text)
  if (kind === 'json') return parseJson(file, text)
  if (kind === 'jsonl') return parseJsonLines(file, text)
  return parseCsvRows(file, text)
}

function parseJson(file: string, text: string): unknown[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(messages.evalDataFileInvalid(file, 'JSON', (error as Error).message))
  }
  if (!Array.isArray(value)) {
    throw new UsageError(
      messages.evalDataFileInvalid(file, 'JSON', 'it holds no list of rows at the top level'),
    )
  }
  return value
}

function parseJsonLines(file: string, text: string): unknown[] {
  const rows: unknown[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '') continue
    try {
      rows.push(JSON.parse(line))
    } catch (error) {
      throw new UsageError(
        messages.evalDataFileInvalid(file, `line ${i + 1}`, (error as Error).message),
      )
    }
  }
  return rows
}

function parseCsvRows(file: string, text: string): unknown[] {
  try {
    // Fields stay strings; a column named twice is an error, not a row that keeps the last value.
    return csvRecords(text)
  } catch (error) {
    throw new UsageError(messages.evalDataFileInvalid(file, 'CSV', (error as Error).message))
  }
}

function checkRows<Row>(rows: readonly unknown[], source: string): Row[] {
  if (rows.length === 0) throw new UsageError(messages.evalNoRows(source))
  rows.forEach((row, index) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new UsageError(messages.evalBadRow(source, index, row))
    }
  })
  return rows as Row[]
}
