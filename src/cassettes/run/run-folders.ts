import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { scratchDirs } from '../../config/paths'

/** A run's scratch folder untouched for this long belongs to a run that has ended. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000
/** Run folders are named after the run id, a UUID. */
const RUN_FOLDER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Delete the scratch folders of earlier runs (their live-call counters) that nothing has touched for
 * a day, so `node_modules/.cache/rubricate` does not grow with every run. Called once at the start
 * of a run; a folder that cannot be read or removed is left as it is.
 * @internal
 */
export function removeStaleRunFolders(root: string, now: number = Date.now()): string[] {
  const removed: string[] = []
  for (const dir of scratchDirs(root)) {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      continue
    }
    for (const name of names) {
      if (!RUN_FOLDER.test(name)) continue
      const folder = join(dir, name)
      try {
        if (now - lastTouched(folder) < STALE_AFTER_MS) continue
        rmSync(folder, { recursive: true, force: true })
        removed.push(folder)
      } catch {
        // Another run may be removing it too, or it is not ours to remove: leave it.
      }
    }
  }
  return removed
}

// The newest modification time of a folder and the files in it (appending to a log changes the
// file's time, not the folder's).
function lastTouched(folder: string): number {
  let newest = statSync(folder).mtimeMs
  for (const name of readdirSync(folder)) {
    newest = Math.max(newest, statSync(join(folder, name)).mtimeMs)
  }
  return newest
}
