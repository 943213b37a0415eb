import { parse as parseCsv } from 'csv-parse/sync'
import { dataText } from './data-text'

/**
 * The records of a CSV text with a header row, every field a string (a CSV cell has no type, and
 * guessing one, "007" as 7, changes the data). A header that names one column twice is an error:
 * the record would keep only the last of the two values. Throws an `Error` whose message says what
 * is wrong; the caller names the file.
 * @internal
 */
export function csvRecords(text: string): Record<string, string>[] {
  return parseCsv(dataText(text), {
    columns: (header: string[]) => {
      const seen = new Map<string, number>()
      header.forEach((name, index) => {
        const first = seen.get(name)
        if (first !== undefined) {
          throw new Error(
            `its header names the column "${name}" twice (columns ${first + 1} and ${index + 1}), and a row keeps one value a column: rename one of them`,
          )
        }
        seen.set(name, index)
      })
      return header
    },
    skip_empty_lines: true,
    relax_column_count: false,
    trim: false,
  }) as Record<string, string>[]
}
