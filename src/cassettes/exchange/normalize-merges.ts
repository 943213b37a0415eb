import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { safeName, scratchDir } from '../../config/paths'
import { appendScratchLine } from '../../config/scratch-files'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { getState, stateSlot } from '../../runtime/state'
import { sha256Hex } from '../store/cassette-key'

/**
 * The merge a `cassettes.normalize` hook must never make (ARCHITECTURE.md §7.3): two tests'
 * different requests normalised into one key, so that one test is served the other's reply.
 * Every request the hook changed is noted by its normalised form, with the body as it was and its
 * test. Vitest runs each test file in a process of its own, so in a run (a run id is known) each
 * worker also appends its notes to its own log in `<scratch>/<runId>/` and reads the others'
 * before it lets a request through: the merge of two files is found as the merge of two tests of
 * one file is. A worker appends before it reads, so of two workers noting one key at once, at
 * least one sees the other's note. Nothing is read or written for a request the hook left alone.
 */

interface Note {
  before: string
  test: string | undefined
}

interface MergeState {
  /**
   * The first request of each test per normalised form, this worker's and those read from the
   * others' logs.
   */
  notes: Map<string, Note[]>
  /** How far each other worker's log has been read, in bytes. */
  read: Map<string, number>
}

const state = stateSlot<MergeState>('normalize-merges', () => ({
  notes: new Map(),
  read: new Map(),
}))

/**
 * Refuse a request that `cassettes.normalize` changed into the form another test's different
 * request was normalised into, in this run. Each test's first request of a form is compared:
 * that is the one keyed without an occurrence, which the other test would be served. Two
 * identical requests, or two requests of one test (told apart by their occurrence), are no
 * merge. @internal
 */
export function checkNormalizeMerge(
  endpoint: string,
  before: string,
  after: string,
  test: string | undefined,
): void {
  const key = sha256Hex(`${endpoint}\0${after}`)
  if (state.notes.get(key)?.some((note) => note.test === test)) return
  const log = runLog()
  if (log) {
    append(log, `${JSON.stringify({ key, before, test })}\n`)
    readOthers(log)
  }
  const notes = state.notes.get(key) ?? []
  const other = notes.find((note) => note.before !== before && note.test !== test)
  if (other) {
    throw new UsageError(
      messages.normalizeMerged(
        other.test ?? 'outside any test',
        test ?? 'outside any test',
        differingWindow(other.before, before),
      ),
    )
  }
  notes.push({ before, test })
  state.notes.set(key, notes)
}

/** The first place two texts differ, each side shown around it. */
function differingWindow(a: string, b: string): [string, string] {
  let at = 0
  while (at < a.length && at < b.length && a[at] === b[at]) at++
  const from = Math.max(0, at - 30)
  return [a.slice(from, at + 50), b.slice(from, at + 50)]
}

function runLog(): { folder: string; file: string } | undefined {
  const runId = getState().run.runId
  if (!runId) return undefined
  const folder = join(scratchDir(), safeName(runId))
  return { folder, file: `normalized-${process.pid}-${threadId}.log` }
}

function append(log: { folder: string; file: string }, line: string): void {
  appendScratchLine(log.folder, log.file, line)
}

// What the other workers appended since the last read, whole lines only: a line being written
// now is read next time.
function readOthers(log: { folder: string; file: string }): void {
  for (const name of readdirSync(log.folder)) {
    if (!name.startsWith('normalized-') || name === log.file) continue
    const from = state.read.get(name) ?? 0
    const bytes = readFileSync(join(log.folder, name)).subarray(from)
    const end = bytes.lastIndexOf(0x0a) + 1
    if (end === 0) continue
    state.read.set(name, from + end)
    for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
      const note = parsedNote(line)
      if (!note) continue
      const { key, before, test } = note
      const notes = state.notes.get(key) ?? []
      if (!notes.some((note) => note.test === test)) {
        notes.push({ before, test })
        state.notes.set(key, notes)
      }
    }
  }
}

// A line a worker that crashed mid-write left torn is no note: skipped, not a failed request.
function parsedNote(line: string): (Note & { key: string }) | undefined {
  try {
    const note = JSON.parse(line) as Note & { key: string }
    return typeof note.key === 'string' && typeof note.before === 'string' ? note : undefined
  } catch {
    return undefined
  }
}
