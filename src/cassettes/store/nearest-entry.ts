import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { scratchDir } from '../../config/paths'
import { requestModel } from '../exchange/prepared-request'
import { canonicalJson } from './canonical-json'
import type { CassetteEntry } from './cassette-entry'
import type { CassetteStore } from './cassette-store'
import { diffPaths } from './json-diff'

/**
 * The nearest recorded entry to a request that missed (ARCHITECTURE.md §7.5): same endpoint and model,
 * recorded by the same test if possible, with the fewest differing JSON paths, and of those the
 * one whose text shares the most with the request's at its start and end. Built on the first
 * miss from an index of the folder (endpoint, model, test of every entry) kept in the scratch
 * folder; entries are content-addressed, so the index only ever parses files it has not seen.
 */

interface IndexItem {
  endpoint: string
  model?: string | undefined
  recordedBy?: string | undefined
  recordedAt: string
  file: string
}

/** The entry found, with the paths where its body differs from the request's. @internal */
export interface NearestEntry {
  entry: CassetteEntry
  file: string
  paths: string[]
}

const MAX_CANDIDATES = 400

/** Find the nearest entry, or `undefined` when the folder has none for this endpoint and model. @internal */
export async function findNearest(
  store: CassetteStore,
  request: {
    endpoint: string
    model: string | undefined
    body: unknown
    recordedBy?: string | undefined
  },
): Promise<NearestEntry | undefined> {
  const index = await refreshIndex(store)
  const candidates = [...index.entries()]
    .filter(([, item]) => item.endpoint === request.endpoint && item.model === request.model)
    .sort(
      ([, a], [, b]) =>
        rank(b, request.recordedBy) - rank(a, request.recordedBy) ||
        (a.recordedAt < b.recordedAt ? 1 : -1),
    )
    .slice(0, MAX_CANDIDATES)
  let best: (NearestEntry & { sameTest: boolean; shared?: number }) | undefined
  let requestText: string | undefined
  for (const [key, item] of candidates) {
    const file = item.file
    const entry = readEntry(store, file, key)
    if (!entry) continue
    const sameTest = request.recordedBy !== undefined && entry.recordedBy === request.recordedBy
    if (best?.sameTest && !sameTest) break
    const paths = diffPaths(entry.request.body, request.body)
    if (!best || paths.length < best.paths.length) {
      best = { entry, file, paths, sameTest }
      continue
    }
    if (paths.length > best.paths.length) continue
    // A tie in differing paths goes to the entry whose text is closer to the request's ("order
    // 124" for "order 123", not the newest entry that asked something else), so the miss shows
    // the change the user made rather than an unrelated recording.
    // Canonical text (keys sorted): the stored body's key order is not the request's.
    requestText ??= canonicalJson(request.body)
    best.shared ??= sharedEnds(canonicalJson(best.entry.request.body), requestText)
    const shared = sharedEnds(canonicalJson(entry.request.body), requestText)
    if (shared > best.shared) best = { entry, file, paths, sameTest, shared }
  }
  return best && { entry: best.entry, file: best.file, paths: best.paths }
}

/** Characters two texts share at their start and their end (not counting any twice). */
function sharedEnds(a: string, b: string): number {
  const most = Math.min(a.length, b.length)
  let start = 0
  while (start < most && a[start] === b[start]) start++
  let end = 0
  while (end < most - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return start + end
}

function rank(item: IndexItem, recordedBy: string | undefined): number {
  return recordedBy !== undefined && item.recordedBy === recordedBy ? 1 : 0
}

async function refreshIndex(store: CassetteStore): Promise<Map<string, IndexItem>> {
  const file = join(
    scratchDir(),
    'nearest-index',
    `${createHash('sha256').update(store.dir).digest('hex').slice(0, 16)}.json`,
  )
  // Read from its scratch file at every miss: no copy is kept in memory, which no suite figure
  // asked for (misses are rare, and each one reads the folder's listing anyway).
  const index = await loadIndex(file)
  const listing = await store.list()
  const present = new Map(listing.entries.map((item) => [item.key, item.file]))
  let changed = false
  for (const key of [...index.keys()]) {
    if (present.get(key) !== index.get(key)?.file) {
      index.delete(key)
      changed = true
    }
  }
  for (const { key, file: entryFile } of listing.entries) {
    if (index.has(key)) continue
    const entry = readEntry(store, entryFile, key)
    if (!entry) continue
    index.set(key, {
      file: entryFile,
      endpoint: entry.request.endpoint,
      model: requestModel(entry.request.body),
      recordedBy: entry.recordedBy,
      recordedAt: entry.recordedAt,
    })
    changed = true
  }
  if (changed) await saveIndex(file, index)
  return index
}

function readEntry(store: CassetteStore, file: string, key: string): CassetteEntry | undefined {
  const entry = store.readEntryFile(file)
  return typeof entry === 'string' || entry.key !== key ? undefined : entry
}

async function loadIndex(file: string): Promise<Map<string, IndexItem>> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8'))
    if (data?.v === 2 && data.entries && typeof data.entries === 'object') {
      return new Map(Object.entries(data.entries as Record<string, IndexItem>))
    }
  } catch {
    // No index yet, or an unreadable one: build it again.
  }
  return new Map()
}

// Best effort: the index is a cache, and a read-only checkout must not fail a replay run.
async function saveIndex(file: string, index: Map<string, IndexItem>): Promise<void> {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`
  try {
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(temp, JSON.stringify({ v: 2, entries: Object.fromEntries(index) }))
    await rename(temp, file)
  } catch {
    // ignored
  }
}
