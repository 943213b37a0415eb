/**
 * `rubricate cassettes prune` (ARCHITECTURE.md §7.9): delete the cassette entries that the last complete
 * Vitest run did not use. The reporter records every run; prune refuses when the last one was not
 * complete, since a partial run leaves out entries that the tests it skipped still need. It
 * deletes only what it can tell no test needs: an entry used by the last run of any config is
 * kept, and so is one recorded by a test file that exists but is not in the run's suite (another
 * config sharing the folder).
 */

/** Options of {@link pruneCassettes}. @internal */
import { existsSync } from 'node:fs'
import { readdir, rmdir, stat, unlink } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { scratchDirs } from '../../config/paths'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { type RunMarker, readRunMarkers } from '../run/run-marker'
import { type CassetteStore, storeFor } from '../store/cassette-store'

export interface PruneOptions {
  /** List what would be deleted, delete nothing. Default `false`. */
  dryRun?: boolean | undefined
  /** Prune only this cassette folder (absolute). Default: every folder the run used. */
  dir?: string | undefined
  /**
   * Delete only superseded entries: the unused ones of tests that recorded a new entry in the
   * run, whose request changed (a reworded criterion). What the reporter does after a complete
   * run that recorded, so that a re-record reads in a diff as one changed file. Default `false`.
   */
  superseded?: boolean | undefined
  /**
   * With `superseded`, the tests of the run that passed (`<absolute test file> > <full name>`),
   * given by the reporter of a partial run (`-t`, a file filter): the run need not be complete,
   * and only the superseded entries of these tests are deleted; every other test's are left as
   * they are. So following a miss message's command (one test, `-t`) leaves that test with only
   * the entries it uses now. Default: the run must be complete, or complete but for failed tests.
   */
  passed?: readonly string[] | undefined
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
  /** Unused entries kept because the test that recorded them recorded nothing new (`superseded`). */
  keptUnchanged: number
  /** Unused entries kept because a test file outside the run's suite recorded them. */
  keptOthers: number
  /**
   * Unused entries kept because the run had failed tests and no test that passed recorded them
   * (a failed test, or one that stopped before its call, may still need them).
   */
  keptFailed: number
}

/** What prune did, per cassette folder of the last complete run. @internal */
export interface PruneReport {
  /** When the run that decided finished (ISO). */
  finishedAt: string
  /** The run had failed tests: only entries recorded by tests that passed were candidates. */
  failedRun: boolean
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
  const markers = await readRunMarkers(root)
  const marker = markers.reduce<RunMarker | undefined>(
    (latest, each) => (!latest || each.finishedAt > latest.finishedAt ? each : latest),
    undefined,
  )
  if (!marker) throw new UsageError(messages.pruneNoRun(relative(root, scratchDirs(root)[0])))
  // A run that ran every test but had failures still proves something: what its passed tests did
  // not use. Any other partial run proves nothing, but about the tests that ran in it and passed:
  // what they re-recorded replaced their old entries (`superseded` with `passed`).
  const given = options.superseded && options.passed ? new Set(options.passed) : undefined
  const passed = given ?? (marker.complete ? undefined : marker.passed && new Set(marker.passed))
  if (!marker.complete && !passed) {
    throw new UsageError(messages.pruneIncomplete(marker.finishedAt, marker.reasons))
  }
  if (marker.cassettes.length === 0) throw new UsageError(messages.pruneNoCassettes())
  const folders = options.dir
    ? marker.cassettes.filter((folder) => folder.dir === options.dir)
    : marker.cassettes
  if (options.dir && folders.length === 0) {
    throw new UsageError(
      messages.pruneFolderNotUsed(
        relative(root, options.dir) || '.',
        marker.cassettes.map((folder) => relative(root, folder.dir) || '.'),
      ),
    )
  }
  const startedAt = Date.parse(marker.startedAt)
  const results: PruneFolderResult[] = []
  const suite = marker.files ? new Set(marker.files) : undefined
  const suiteFiles = suite ?? new Set<string>()
  for (const { dir, used } of folders) {
    // What the last run of every config used in this folder: the other configs' runs count too.
    const keep = new Set(used)
    for (const other of markers) {
      for (const folder of other.cassettes)
        if (folder.dir === dir) for (const k of folder.used) keep.add(k)
    }
    const { entries } = await storeFor(dir).list()
    const result: PruneFolderResult = {
      dir,
      total: entries.length,
      deleted: [],
      keptNewer: 0,
      keptUnchanged: 0,
      keptOthers: 0,
      keptFailed: 0,
    }
    // Written while or after the run started, each file asked at most once.
    const written = new Map<string, boolean>()
    const isNew = async (file: string): Promise<boolean> => {
      let known = written.get(file)
      if (known === undefined) {
        known = (await stat(file)).mtimeMs >= startedAt
        written.set(file, known)
      }
      return known
    }
    // The tests that recorded a new entry in the run: their unused entries are what it replaced.
    const rerecorded = new Set<string>()
    if (options.superseded) {
      for (const entry of entries) {
        if (!(await isNew(entry.file))) continue
        const recorder = recordingTest(storeFor(dir), entry.file, root, suiteFiles)
        if (recorder) rerecorded.add(testLabelOf(recorder))
      }
    }
    for (const entry of entries) {
      if (keep.has(entry.key)) continue
      // Written while or after the run ran, by another process: not the run's to judge.
      if (await isNew(entry.file)) {
        result.keptNewer++
        continue
      }
      const recorder = recordingTest(storeFor(dir), entry.file, root, suiteFiles)
      if (options.superseded && !(recorder && rerecorded.has(testLabelOf(recorder)))) {
        result.keptUnchanged++
        continue
      }
      if (suite && recorder && !suite.has(recorder.file) && existsSync(recorder.file)) {
        result.keptOthers++
        continue
      }
      if (passed && !(recorder && passed.has(testLabelOf(recorder)))) {
        result.keptFailed++
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
  return { finishedAt: marker.finishedAt, failedRun: passed !== undefined, folders: results }
}

/**
 * The test that recorded an entry (its file absolute), from `recordedBy`; `undefined` for an entry
 * a script recorded, or one that cannot be read. An entry of a test file outside the suite that
 * exists is another config's; one of a deleted or renamed file is the run's to delete. The label
 * is cut after a test file the run knows (`known`, absolute) or one that exists: a file or folder
 * name may hold " > " too, and cutting at the first one would name a file that does not exist,
 * which reads as a deleted test file whose entries may go.
 */
function recordingTest(
  store: CassetteStore,
  file: string,
  root: string,
  known: ReadonlySet<string>,
): { file: string; name: string } | undefined {
  const entry = store.readEntryFile(file)
  if (typeof entry === 'string' || !entry.recordedBy) return undefined
  const label = entry.recordedBy
  let first: { file: string; name: string } | undefined
  for (let cut = label.indexOf(' > '); cut >= 0; cut = label.indexOf(' > ', cut + 1)) {
    const test = { file: resolve(root, label.slice(0, cut)), name: label.slice(cut + 3) }
    if (known.has(test.file) || existsSync(test.file)) return test
    first ??= test
  }
  return first
}

// `<absolute test file> > <full name>`, the form the run marker lists passed tests in.
function testLabelOf(test: { file: string; name: string }): string {
  return `${test.file} > ${test.name}`
}

async function removeIfEmpty(dir: string): Promise<void> {
  if ((await readdir(dir)).length === 0) await rmdir(dir).catch(() => undefined)
}
