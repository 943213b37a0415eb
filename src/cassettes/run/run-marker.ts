/**
 * The record of the last finished Vitest run of each config file, written by the reporter and
 * read by `rubricate cassettes prune`. It lives with rubricate's scratch files in
 * `node_modules/.cache/rubricate` (never in the cassette folder, which may be read-only and is
 * committed). One marker per config: two configs of a project (unit and e2e) may share a cassette
 * folder, and the run of one must not erase what the other used.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { scratchDir, scratchDirs } from '../../config/paths'
import { makeScratchFolder } from '../../config/scratch-files'

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
  /** The Vitest config file of the run (absolute), when it had one. */
  config?: string | undefined
  /** Every test file of the suite (absolute), when the run may be complete. */
  files?: string[] | undefined
  /**
   * Set only when the run ran every test but some failed: `<absolute test file> > <full name>` of
   * each test that passed, leaving out a label that a test which did not pass shares (an entry
   * names only its label). Prune then deletes only the unused entries those tests recorded.
   */
  passed?: string[] | undefined
}

const MARKER_FILE = /^last-run(-[0-9a-f]{12})?\.json$/

/** Where the marker of a project's runs with `config` lives. @internal */
export function runMarkerPath(root: string, config?: string | undefined): string {
  const name = config
    ? `last-run-${createHash('sha256').update(config).digest('hex').slice(0, 12)}.json`
    : 'last-run.json'
  return join(scratchDir(root), name)
}

/** Write the marker atomically (temp file, then rename), so prune never reads half of one. @internal */
export async function writeRunMarker(root: string, marker: RunMarker): Promise<void> {
  const path = runMarkerPath(root, marker.config)
  makeScratchFolder(dirname(path))
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
  for (const marker of await readRunMarkers(root)) {
    if (!latest || marker.finishedAt > latest.finishedAt) latest = marker
  }
  return latest
}

/** The marker of every config's last run, in both scratch folders. @internal */
export async function readRunMarkers(root: string): Promise<RunMarker[]> {
  const markers: RunMarker[] = []
  for (const dir of scratchDirs(root)) {
    const names = await readdir(dir).catch(() => [] as string[])
    for (const name of names.filter((n) => MARKER_FILE.test(n)).sort()) {
      const marker = await readMarkerFile(join(dir, name))
      if (marker) markers.push(marker)
    }
  }
  return markers
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
