import { statSync } from 'node:fs'
import { CassetteStore } from '../store/cassette-store'
import { requestModel } from '../store/model-endpoint'

/** What `rubricate cassettes stats` reports about a cassette folder (ARCHITECTURE.md §7.9). @internal */
export interface CassetteStats {
  dir: string
  entries: number
  bytes: number
  /** Entries per endpoint, most first. */
  endpoints: Record<string, number>
  /** Entries per model (`(none)` when the request names none), most first. */
  models: Record<string, number>
  oldest: { recordedAt: string; file: string } | undefined
  newest: { recordedAt: string; file: string } | undefined
  /** Entry files that do not parse: `verify` says why. */
  unreadable: number
}

/**
 * Read every entry of a folder once, synchronously: a command has nothing else to do meanwhile,
 * and a small file reads faster so than through the promise API.
 * @internal
 */
export async function cassetteStats(dir: string): Promise<CassetteStats> {
  const store = new CassetteStore(dir)
  const { entries } = await store.list()
  const stats: CassetteStats = {
    dir,
    entries: 0,
    bytes: 0,
    endpoints: {},
    models: {},
    oldest: undefined,
    newest: undefined,
    unreadable: 0,
  }
  for (const { file } of entries) {
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') {
      stats.unreadable++
      continue
    }
    stats.entries++
    stats.bytes += statSync(file).size
    const endpoint = entry.request.endpoint
    const model = requestModel(entry.request.body) ?? '(none)'
    stats.endpoints[endpoint] = (stats.endpoints[endpoint] ?? 0) + 1
    stats.models[model] = (stats.models[model] ?? 0) + 1
    if (!stats.oldest || entry.recordedAt < stats.oldest.recordedAt) {
      stats.oldest = { recordedAt: entry.recordedAt, file }
    }
    if (!stats.newest || entry.recordedAt > stats.newest.recordedAt) {
      stats.newest = { recordedAt: entry.recordedAt, file }
    }
  }
  stats.endpoints = byCount(stats.endpoints)
  stats.models = byCount(stats.models)
  return stats
}

function byCount(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)),
  )
}
