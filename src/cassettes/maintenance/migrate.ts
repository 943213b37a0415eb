import { canonicalJson } from '../store/canonical-json'
import type { CassetteEntry } from '../store/cassette-entry'
import { CassetteStore } from '../store/cassette-store'

/** What `rubricate cassettes migrate` did to a folder. @internal */
export interface MigrateReport {
  /** Format-1 entries rewritten as format 2: the old file and the new one, absolute. */
  migrated: { from: string; to: string }[]
  /** Entries already in format 2. */
  current: number
  /** Format-1 files that could not be read, with the reason: left as they were. */
  problems: { file: string; problem: string }[]
}

/**
 * Rewrite every format-1 entry of a folder as format 2, losslessly: each new file is read back
 * and compared with the old entry (every request and reply value) before the old file goes, so
 * a replay answers exactly as before. Keys do not change.
 * @internal
 */
export async function migrateCassettes(dir: string): Promise<MigrateReport> {
  const store = new CassetteStore(dir)
  const report: MigrateReport = { migrated: [], current: 0, problems: [] }
  for (const { file, format } of (await store.list()).entries) {
    if (format === 2) {
      report.current++
      continue
    }
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') {
      report.problems.push({ file, problem: entry })
      continue
    }
    const to = await store.write({ ...entry, v: 2 }, { reformat: true })
    const back = new CassetteStore(dir).readEntryFile(to)
    if (typeof back === 'string' || comparable(back) !== comparable(entry)) {
      report.problems.push({
        file,
        problem: `its format-2 copy ${to} does not read back the same; the old file was kept`,
      })
      continue
    }
    report.migrated.push({ from: file, to })
  }
  return report
}

function comparable(entry: CassetteEntry): string {
  const { v: _v, ...rest } = entry
  return canonicalJson(rest)
}
