/**
 * The entry files of a cassette folder (DESIGN 7.2: `<dir>/<k0k1>/<key>.json`). Files that do not
 * follow the layout are not entries and are never listed, so prune cannot touch them.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** One entry file. @internal */
export interface EntryFile {
  key: string
  /** Absolute path. */
  file: string
}

const SHARD = /^[0-9a-z]{2}$/i

/** Every entry of a cassette folder, sorted by key; none when the folder does not exist. @internal */
export async function listEntryFiles(dir: string): Promise<EntryFile[]> {
  let shards: string[]
  try {
    shards = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && SHARD.test(entry.name))
      .map((entry) => entry.name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const entries: EntryFile[] = []
  for (const shard of shards) {
    for (const entry of await readdir(join(dir, shard), { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue
      const key = entry.name.slice(0, -'.json'.length)
      if (!key.startsWith(shard)) continue
      entries.push({ key, file: join(dir, shard, entry.name) })
    }
  }
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}
