import { readFileSync } from 'node:fs'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { CassetteCorruptError, CassetteWriteError } from '../../errors'
import { messages } from '../../messages'
import { displayPath } from '../../paths'
import { type CassetteEntry, parseEntry, serializeEntry } from './cassette-entry'

/**
 * The content-addressed store (DESIGN 7.2, 7.6): `<dir>/<k0k1>/<key>.json`, one file per exchange.
 * Reads are synchronous: a 4 KB file from the page cache costs about 5 µs that way, against about
 * 70 µs through the promise API, and replay is the hot path of every test. Writes go to a temp file
 * in the same folder and are renamed into place, so any number of processes may record at once and
 * a reader never sees half a file.
 */

const KEY_FILE = /^[0-9a-f]{64}\.json$/
const SHARD = /^[0-9a-f]{2}$/

/** A listing of the cassette folder. @internal */
export interface StoreListing {
  entries: { key: string; file: string }[]
  /** Files that are not entries (leftover temp files, strays), as absolute paths. */
  others: string[]
}

/** @internal */
export class CassetteStore {
  readonly dir: string
  readonly #writing = new Map<string, Promise<void>>()

  constructor(dir: string) {
    this.dir = dir
  }

  /** Absolute path of the file of `key`. */
  file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`)
  }

  /** The entry for `key`, `undefined` when there is none, `RUBRICATE_CASSETTE_CORRUPT` when unusable. */
  read(key: string): CassetteEntry | undefined {
    const file = this.file(key)
    const first = this.#readText(file)
    if (first === undefined) return undefined
    let parsed = parseEntry(first, key)
    if (typeof parsed === 'string') {
      // A writer that does not rename atomically (an editor, a merge tool) may be mid-write: look again once.
      const second = this.#readText(file)
      if (second === undefined) return undefined
      parsed = parseEntry(second, key)
    }
    if (typeof parsed === 'string') throw this.corrupt(file, parsed)
    return parsed
  }

  /** Write an entry atomically. Concurrent writes of one key in this process share one write. */
  write(entry: CassetteEntry): Promise<void> {
    const pending = this.#writing.get(entry.key)
    if (pending) return pending.then(() => this.write(entry))
    const done = this.#writeNow(entry).finally(() => this.#writing.delete(entry.key))
    this.#writing.set(entry.key, done)
    return done
  }

  /** Every entry file and every other file under the folder. A missing folder is empty. */
  async list(): Promise<StoreListing> {
    const listing: StoreListing = { entries: [], others: [] }
    const top = await readdir(this.dir, { withFileTypes: true }).catch(() => [])
    await Promise.all(
      top.map(async (item) => {
        const path = join(this.dir, item.name)
        if (!item.isDirectory() || !SHARD.test(item.name)) {
          if (!item.name.startsWith('.')) listing.others.push(path)
          return
        }
        for (const name of await readdir(path).catch(() => [] as string[])) {
          if (KEY_FILE.test(name) && name.startsWith(item.name)) {
            listing.entries.push({ key: name.slice(0, 64), file: join(path, name) })
          } else {
            listing.others.push(join(path, name))
          }
        }
      }),
    )
    listing.entries.sort((a, b) => (a.key < b.key ? -1 : 1))
    listing.others.sort()
    return listing
  }

  /** The error for a file that cannot be used; the file itself is left as it was. */
  corrupt(file: string, reason: string): CassetteCorruptError {
    return new CassetteCorruptError(messages.cassetteCorrupt(displayPath(file), reason), file)
  }

  /**
   * A file's text, `undefined` when there is none. A file that exists but cannot be read (a
   * folder in its place, no permission) is `RUBRICATE_CASSETTE_CORRUPT` naming it: thrown raw,
   * the judge's SDK would take it for a connection error and retry it.
   */
  #readText(file: string): string | undefined {
    try {
      return readFileSync(file, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
      throw new CassetteCorruptError(
        messages.cassetteCorrupt(
          displayPath(file),
          `it cannot be read (${(error as Error).message})`,
        ),
        file,
        { cause: error },
      )
    }
  }

  async #writeNow(entry: CassetteEntry): Promise<void> {
    const file = this.file(entry.key)
    const temp = `${file}.${process.pid}.${threadId}.${Math.random().toString(36).slice(2, 10)}.tmp`
    try {
      await mkdir(join(this.dir, entry.key.slice(0, 2)), { recursive: true })
      await writeFile(temp, serializeEntry(entry))
      await renameWithRetry(temp, file)
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {})
      throw new CassetteWriteError(
        messages.cassetteWriteFailed(displayPath(file), (error as Error).message),
        file,
        { cause: error },
      )
    }
  }
}

const stores = new Map<string, CassetteStore>()

/** The store of a folder (one instance per folder and module copy). @internal */
export function storeFor(dir: string): CassetteStore {
  let store = stores.get(dir)
  if (!store) {
    store = new CassetteStore(dir)
    stores.set(dir, store)
  }
  return store
}

// Windows refuses to rename over a file another process holds open; the holder is a reader that
// lets go within milliseconds.
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to)
      return
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw error
      await new Promise((resolve) => setTimeout(resolve, 10 * (attempt + 1)))
    }
  }
}
