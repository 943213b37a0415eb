import { rm } from 'node:fs/promises'
import { isRubricateError } from '../../errors'
import type { CassetteEntry } from '../store/cassette-entry'
import { CassetteStore } from '../store/cassette-store'
import { diffPaths } from '../store/json-diff'

/** What `rubricate cassettes migrate` did to a folder. @internal */
export interface MigrateReport {
  /** Format-1 entries rewritten as format 2: the old file and the new one, absolute. */
  migrated: { from: string; to: string }[]
  /** Entries already in format 2. */
  current: number
  /** Format-1 files that could not be read or rewritten, with the reason: left as they were. */
  problems: { file: string; problem: string }[]
}

/**
 * Rewrite every format-1 entry of a folder as format 2, losslessly: each new file is read back
 * and compared with the old entry (every request and reply value) before the old file goes, so
 * a replay answers exactly as before. Keys do not change. An entry that cannot be rewritten, or
 * whose copy reads back otherwise, keeps its old file (a copy this run made is taken back) and is
 * reported; the others are migrated all the same.
 * @internal
 */
export async function migrateCassettes(dir: string): Promise<MigrateReport> {
  const store = new CassetteStore(dir)
  const report: MigrateReport = { migrated: [], current: 0, problems: [] }
  const { entries } = await store.list()
  const before = new Set(entries.map((listed) => listed.file))
  for (const { file, format } of entries) {
    if (format === 2) {
      report.current++
      continue
    }
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') {
      report.problems.push({ file, problem: entry })
      continue
    }
    let to: string
    try {
      to = await store.write({ ...entry, v: 2 }, { reformat: true })
    } catch (error) {
      if (!isRubricateError(error)) throw error
      report.problems.push({
        file,
        problem: `it could not be rewritten (${error.message}); the old file was kept`,
      })
      continue
    }
    const back = new CassetteStore(dir).readEntryFile(to)
    const differs =
      typeof back === 'string' ? [back] : diffPaths(comparable(back), comparable(entry), 3)
    if (differs.length > 0) {
      // Only a copy this run wrote is taken back: a format-2 file that was there before stays.
      if (!before.has(to)) await rm(to, { force: true })
      store.forget()
      report.problems.push({
        file,
        problem: `its format-2 copy ${to} does not read back the same (${differs.join(', ')}); the old file was kept${before.has(to) ? '' : ' and the copy removed'}`,
      })
      continue
    }
    if (to !== file) await rm(file, { force: true })
    report.migrated.push({ from: file, to })
  }
  return report
}

function comparable(entry: CassetteEntry): unknown {
  const { v: _v, ...rest } = entry
  // Through JSON, as the file holds it: `undefined` members and the entry's own shapes aside.
  return JSON.parse(JSON.stringify(rest))
}
