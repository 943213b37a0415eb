/**
 * The record of the last finished Vitest run, written by the reporter and read by
 * `rubricate cassettes prune`. It lives with rubricate's scratch files in
 * `node_modules/.cache/rubricate` (never in the cassette folder, which may be read-only and is
 * committed).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { scratchDir, scratchDirs } from '../../paths'

/** What the last run did with cassettes. @internal */
export interface RunMarker {
  v: 1
  startedAt: string
  finishedAt: string
  /** Passed, with no file filter, -t, .only, skip or shard. */
  complete: boolean
  /** Why the run is not complete (phrases of `messages.incomplete`). */
  reasons: string[]
  /** Per cassette folder (absolute), the keys of every entry the run served or recorded. */
  cassettes: { dir: string; used: string[] }[]
}

/** Where the marker of a project lives. @internal */
export function runMarkerPath(root: string): string {
  return join(scratchDir(root), 'last-run.json')
}

/** Write the marker atomically (temp file, then rename), so prune never reads half of one. @internal */
export async function writeRunMarker(root: string, marker: RunMarker): Promise<void> {
  const path = runMarkerPath(root)
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`
  await writeFile(temp, `${JSON.stringify(marker, null, 2)}\n`)
  await rename(temp, path)
}

/**
 * The marker of a project, or `undefined` when no run was recorded (or it is unreadable). Looks in
 * both scratch folders and takes the latest run.
 * @internal
 */
export async function readRunMarker(root: string): Promise<RunMarker | undefined> {
  let latest: RunMarker | undefined
  for (const dir of scratchDirs(root)) {
    const marker = await readMarkerFile(join(dir, 'last-run.json'))
    if (marker && (!latest || marker.finishedAt > latest.finishedAt)) latest = marker
  }
  return latest
}

async function readMarkerFile(path: string): Promise<RunMarker | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    const marker = JSON.parse(text) as RunMarker
    return marker.v === 1 && Array.isArray(marker.cassettes) ? marker : undefined
  } catch {
    return undefined
  }
}
