/**
 * `rubricate cassettes prune` (DESIGN 7.9): delete the cassette entries that the last complete
 * Vitest run did not use. The reporter records every run; prune refuses when the last one was not
 * complete, since a partial run leaves out entries that the tests it skipped still need.
 */
import { readdir, rmdir, stat, unlink } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { scratchDirs } from '../../paths'
import { readRunMarker } from '../run/run-marker'
import { storeFor } from '../store/cassette-store'

/** Options of {@link pruneCassettes}. @internal */
export interface PruneOptions {
  /** List what would be deleted, delete nothing. Default `false`. */
  dryRun?: boolean | undefined
}

/** What prune did in one cassette folder. @internal */
export interface PruneFolderResult {
  dir: string
  /** Entries in the folder before pruning. */
  total: number
  /** Entry files deleted (or, in a dry run, that would be). */
  deleted: string[]
  /** Unused entries kept because they were written after the run started. */
  keptNewer: number
}

/** What prune did, per cassette folder of the last complete run. @internal */
export interface PruneReport {
  /** When the run that decided finished (ISO). */
  finishedAt: string
  folders: PruneFolderResult[]
}

/**
 * Prune the cassette folders of the project at `root`, from the record of its last run. Throws a
 * `RUBRICATE_USAGE` error that says why, when no run is recorded or the last one was not complete.
 * @internal
 */
export async function pruneCassettes(
  root: string,
  options: PruneOptions = {},
): Promise<PruneReport> {
  const marker = await readRunMarker(root)
  if (!marker) throw new UsageError(messages.pruneNoRun(relative(root, scratchDirs(root)[0])))
  if (!marker.complete) {
    throw new UsageError(messages.pruneIncomplete(marker.finishedAt, marker.reasons))
  }
  if (marker.cassettes.length === 0) throw new UsageError(messages.pruneNoCassettes())
  const startedAt = Date.parse(marker.startedAt)
  const results: PruneFolderResult[] = []
  for (const { dir, used } of marker.cassettes) {
    const keep = new Set(used)
    const { entries } = await storeFor(dir).list()
    const result: PruneFolderResult = { dir, total: entries.length, deleted: [], keptNewer: 0 }
    for (const entry of entries) {
      if (keep.has(entry.key)) continue
      // Written while or after the run ran, by another process: not the run's to judge.
      if ((await stat(entry.file)).mtimeMs >= startedAt) {
        result.keptNewer++
        continue
      }
      if (!options.dryRun) {
        await unlink(entry.file)
        await removeIfEmpty(dirname(entry.file))
      }
      result.deleted.push(entry.file)
    }
    results.push(result)
  }
  return { finishedAt: marker.finishedAt, folders: results }
}

async function removeIfEmpty(dir: string): Promise<void> {
  if ((await readdir(dir)).length === 0) await rmdir(dir).catch(() => undefined)
}
