import { stableJson } from '../src/output/stable-json'
import { oneLine } from '../src/records/one-line'
import type { EvalRow } from './types'

const MAX_LENGTH = 60

/**
 * The test names of an eval's rows: `row.name` when it is a non-empty string, else the row's
 * input on one line, shortened to 60 characters. A name taken twice gets ` (2)`, ` (3)`... so that
 * `-t` and the reports tell the rows apart.
 * @internal
 */
export function rowNames(rows: readonly EvalRow[]): string[] {
  const seen = new Map<string, number>()
  return rows.map((row, index) => {
    const base = baseName(row, index)
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return count === 1 ? base : `${base} (${count})`
  })
}

function baseName(row: EvalRow, index: number): string {
  if (typeof row.name === 'string' && row.name.trim() !== '') return shortLine(row.name)
  const input = row.input
  if (input === undefined) return `row ${index + 1}`
  const text = shortLine(typeof input === 'string' ? input : stableJson(input))
  return text === '' ? `row ${index + 1}` : text
}

function shortLine(text: string): string {
  const flat = oneLine(text)
  return flat.length <= MAX_LENGTH ? flat : `${flat.slice(0, MAX_LENGTH - 1).trimEnd()}…`
}
