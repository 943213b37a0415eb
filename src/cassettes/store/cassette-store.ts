import { existsSync, readdirSync, readFileSync, type Stats } from 'node:fs'
import { lstat, mkdir, realpath, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { threadId } from 'node:worker_threads'
import { displayPath, projectRoot } from '../../config/paths'
import { CassetteCorruptError, CassetteWriteError } from '../../errors'
import { messages } from '../../messages'
import { canonicalJson } from './canonical-json'
import { type CassetteEntry, parseEntry, serializeEntry } from './cassette-entry'
import { deepFreeze } from './deep-frozen'

/**
 * The cassette store (ARCHITECTURE 7.2, 7.6). Format 2 files an entry under the test that recorded
 * it, `<dir>/<test file path>/<test-name-slug>.<key prefix>.json` (calls outside a test under
 * `<dir>/_shared/`), with the reply schema of judge requests once in `<dir>/_shared/schemas/`.
 * Lookup stays by content, the full key inside the file: the running test's folder first (one
 * listing per folder and process), then a format-1 path `<dir>/<k0k1>/<key>.json`, then, on the
 * first miss only, an index of every file name under the folder, so a renamed or moved test still
 * finds its recordings and two tests may share one. Reads are synchronous, faster than the promise
 * API on replay, the hot path of every test. Writes go to a temp file in the same folder and are renamed into
 * place, so any number of processes may record at once and a reader never sees half a file.
 */

// An options object, not the string 'utf8', which Node turns into a new object on every read.
const UTF8 = Object.freeze({ encoding: 'utf8' as const })
// The options every entry is read with (one object, not one per read).
const LAZY_REQUEST_BODY = Object.freeze({ lazyRequestBody: true })
const V1_FILE = /^[0-9a-f]{64}\.json$/
const V2_FILE = /\.([0-9a-f]{12})\.json$/
const SHARD = /^[0-9a-f]{2}$/
const KEY_IN_TEXT = /"key": "([0-9a-f]{64})"/

/** Hex digits of the key in a format-2 file name. @internal */
export const KEY_PREFIX_LENGTH = 12

/** The folder, under the cassette folder, of entries recorded outside any test; also holds `schemas/`. */
export const SHARED_FOLDER = '_shared'

/** One entry file of a listing. */
export interface ListedEntry {
  /** The full key (read from the file for format 2; the file name's prefix when unreadable). */
  key: string
  /** Absolute path. */
  file: string
  /** The format, from the file's place: `<k0k1>/<key>.json` is 1, any other entry file 2. */
  format: 1 | 2
  /** The test file folder it lies in (`/` separated, relative to the cassette folder); `''` for format 1. */
  folder: string
}

/** A listing of the cassette folder. */
export interface StoreListing {
  entries: ListedEntry[]
  /** The shared reply schemas, as absolute paths. */
  schemas: string[]
  /** Files that are not entries (leftover temp files, strays), as absolute paths. */
  others: string[]
}

interface Found {
  file: string
  entry: CassetteEntry
}

/**
 * One cassette folder: read an entry by key, write one, list them all. This is the API every
 * reader of entries goes through (replay, `verify`, `stats`, `prune`, `migrate`, `diff`).
 */
export class CassetteStore {
  readonly dir: string
  readonly #writing = new Map<string, Promise<unknown>>()
  /** Where each key read or written by this process lies, by key and owner ({@link located}). */
  readonly #located = new Map<string, string>()
  /** Where each key was last found or written, whoever recorded it: for {@link file} alone. */
  readonly #lastFile = new Map<string, string>()
  /** The entry file names of each test folder read, by key prefix. */
  readonly #folders = new Map<string, Map<string, string[]>>()
  /** Every entry file under the folder, by key prefix: built on the first miss. */
  #index: Map<string, string[]> | undefined
  readonly #schemas = new Map<string, unknown>()
  /** The folder of each test file seen, by the file part of its label; `undefined` for `_shared`. */
  readonly #testFolders = new Map<string | undefined, string>()
  /** The folder as messages show it, worked out once: see {@link shownFile}. */
  readonly #shownDir: string

  constructor(dir: string) {
    this.dir = dir
    // The project folder itself shows as nothing: its files are shown from there.
    this.#shownDir = resolve(dir) === resolve(projectRoot()) ? '' : displayPath(dir)
  }

  /**
   * Absolute path of the file of `key`: where it was found or written, else where the test
   * labelled `recordedBy` (`<test file> > <test name>`) would record it.
   */
  file(key: string, recordedBy?: string | undefined): string {
    return (
      this.#located.get(located(key, recordedBy)) ??
      this.#lastFile.get(key) ??
      this.placeFor(key, recordedBy, undefined)
    )
  }

  /** {@link file}, relative to the folder, with `/` separators: what records and reports show. */
  relativeFile(key: string, recordedBy?: string | undefined): string {
    const file = this.file(key, recordedBy)
    // Every entry lies under the folder: a slice, not path.relative, on the replay path.
    const inside = file.startsWith(this.dir + sep)
      ? file.slice(this.dir.length + 1)
      : relative(this.dir, file)
    return sep === '/' ? inside : inside.split(sep).join('/')
  }

  /**
   * {@link file} as messages and warnings show it (relative to the project when inside it, `/`
   * separated): the store shows its own files, so a warning on the replay path needs no path logic.
   */
  shownFile(key: string, recordedBy?: string | undefined): string {
    const inside = this.relativeFile(key, recordedBy)
    return this.#shownDir === '' ? inside : `${this.#shownDir}/${inside}`
  }

  /** Where a new entry of `key` recorded by `recordedBy` is written. */
  placeFor(key: string, recordedBy: string | undefined, endpoint: string | undefined): string {
    const prefix = key.slice(0, KEY_PREFIX_LENGTH)
    const place = testPlace(recordedBy)
    if (!place) return join(this.dir, SHARED_FOLDER, `${slug(endpoint ?? 'call')}.${prefix}.json`)
    return join(this.dir, ...place.folder, `${slug(place.name)}.${prefix}.json`)
  }

  /**
   * The entry for `key`, whichever test recorded it: for the tools that read a folder (`verify`,
   * `migrate`, tests). Replay asks {@link readOwn}. `undefined` when there is none,
   * `RUBRICATE_CASSETTE_CORRUPT` when unusable.
   */
  read(key: string): CassetteEntry | undefined {
    return this.#find(key, ANY_TEST)?.entry
  }

  /**
   * The entry for `key` that the test labelled `recordedBy` recorded (`undefined`: a call made
   * outside any test), `undefined` when it recorded none, `RUBRICATE_CASSETTE_CORRUPT` when
   * unusable. Another test's entry of the same key is never the answer, however alike the two
   * requests (ARCHITECTURE.md §7.2): a test is served only the replies it recorded.
   */
  readOwn(key: string, recordedBy: string | undefined): CassetteEntry | undefined {
    return (this.#own(key, recordedBy) ?? this.#find(key, recordedBy))?.entry
  }

  /**
   * The entry of `key` that the test labelled `recordedBy` recorded itself, in its own file: a
   * lookup tries it before content alone, so two tests that make the same request and were
   * answered differently (an approval and a rejection) each keep their own reply.
   */
  #own(key: string, recordedBy: string | undefined): Found | undefined {
    if (recordedBy === undefined || testPlace(recordedBy) === undefined) return undefined
    return this.#readCandidate(this.placeFor(key, recordedBy, undefined), key, recordedBy)
  }

  /**
   * Parse an entry file by path: the entry, or a sentence saying what is wrong with it. Shared
   * schemas are read from this folder.
   */
  readEntryFile(file: string): CassetteEntry | string {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      return `it cannot be read (${(error as Error).message})`
    }
    return parseEntry(text, undefined, this.#loadSchema)
  }

  /** The entry of `key` that {@link list} names in `file`; `undefined` when it holds no such entry. */
  listedEntry(file: string, key: string): CassetteEntry | undefined {
    const entry = this.readEntryFile(file)
    return typeof entry === 'string' || entry.key !== key ? undefined : entry
  }

  /**
   * Write an entry atomically, beside the file that holds its key or else under its test. An
   * entry whose file already holds the same exchange (recording time, response ids and stream
   * timings aside) is not written: a re-record of an unchanged reply changes no file. With
   * `reformat`, a format-1 file is rewritten as format 2 all the same (`cassettes migrate`).
   * Concurrent writes of one key in this process share one write. Resolves to the entry's file.
   */
  write(entry: CassetteEntry, options: { reformat?: boolean } = {}): Promise<string> {
    return this.record(entry, options).then((written) => written.file)
  }

  /**
   * {@link write}, telling whether the store kept an entry it holds (the same exchange, ids
   * aside): the caller then serves that entry, so the ids a client carries on are the stored ones.
   * With `sameIds`, an entry whose ids differ is written (a streamed reply the client has read).
   * A test's changed reply goes to its own file, never over another test's entry.
   */
  record(
    entry: CassetteEntry,
    options: { reformat?: boolean; sameIds?: boolean } = {},
  ): Promise<{ file: string; kept: CassetteEntry | undefined }> {
    const pending = this.#writing.get(entry.key)
    if (pending)
      return pending.then(
        () => this.record(entry, options),
        () => this.record(entry, options),
      )
    const done = this.#writeNow(entry, options.reformat === true, options.sameIds === true).finally(
      () => this.#writing.delete(entry.key),
    )
    // The caller's own promise, not one derived from it: a failed write is the caller's to
    // handle, and a derived promise nobody awaits would be an unhandled rejection.
    this.#writing.set(entry.key, done)
    return done
  }

  /** Every entry file, shared schema and other file under the folder. A missing folder is empty. */
  async list(options: { fullKeys?: boolean } = {}): Promise<StoreListing> {
    // A format-2 file is named by its key's prefix; its full key is read from the file, unless the
    // caller reads every file anyway (verify) and says so with `fullKeys: false`.
    const fullKeys = options.fullKeys ?? true
    const listing: StoreListing = { entries: [], schemas: [], others: [] }
    for (const { path, parts } of walk(this.dir)) {
      const name = parts[parts.length - 1] as string
      if (parts.length === 3 && parts[0] === SHARED_FOLDER && parts[1] === 'schemas') {
        if (/^[0-9a-f]{16}\.json$/.test(name)) listing.schemas.push(path)
        else listing.others.push(path)
        continue
      }
      if (parts.length === 2 && SHARD.test(parts[0] as string) && V1_FILE.test(name)) {
        if (name.startsWith(parts[0] as string)) {
          listing.entries.push({ key: name.slice(0, 64), file: path, format: 1, folder: '' })
          continue
        }
      }
      const prefix = V2_FILE.exec(name)?.[1]
      if (prefix && !(parts.length === 2 && SHARD.test(parts[0] as string))) {
        const key = (fullKeys ? keyInFile(path) : undefined) ?? prefix
        const folder = parts.slice(0, -1).join('/')
        listing.entries.push({ key, file: path, format: 2, folder })
        continue
      }
      listing.others.push(path)
    }
    listing.entries.sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.file < b.file ? -1 : 1,
    )
    listing.schemas.sort()
    listing.others.sort()
    return listing
  }

  /** The error for a file that cannot be used; the file itself is left as it was. */
  corrupt(file: string, reason: string): CassetteCorruptError {
    return new CassetteCorruptError(messages.cassetteCorrupt(displayPath(file), reason), file)
  }

  /** Forget what this process learnt of the folder (files changed behind its back: a migration). */
  forget(): void {
    this.#located.clear()
    this.#lastFile.clear()
    this.#folders.clear()
    this.#index = undefined
    this.#schemas.clear()
  }

  /**
   * The entry of `key` that `recordedBy` recorded, wherever it lies: a test renamed or moved
   * records again, as its label (`<file> > <name>`) is no longer the one its entries carry.
   */
  #find(key: string, recordedBy: Owner): Found | undefined {
    const at = located(key, recordedBy)
    const known = this.#located.get(at)
    if (known) {
      const found = this.#readCandidate(known, key, recordedBy)
      if (found) return found
      this.#located.delete(at)
    }
    const folder = this.#testFolder(recordedBy)
    const prefix = key.slice(0, KEY_PREFIX_LENGTH)
    const inFolder = (fresh: boolean) => {
      for (const name of this.#folderNames(folder, fresh).get(prefix) ?? []) {
        // A name read from the folder, joined to a folder already normalised.
        const found = this.#readCandidate(`${folder}${sep}${name}`, key, recordedBy)
        if (found) return found
      }
      return undefined
    }
    const found =
      inFolder(false) ??
      this.#readCandidate(join(this.dir, key.slice(0, 2), `${key}.json`), key, recordedBy) ??
      // A miss so far: another process may have written to the folder since it was listed.
      inFolder(true) ??
      this.#fromIndex(key, recordedBy)
    if (found) this.#remember(at, key, found.file)
    return found
  }

  #remember(at: string, key: string, file: string): void {
    this.#located.set(at, file)
    this.#lastFile.set(key, file)
  }

  /** The folder of the test labelled `recordedBy` (`_shared` outside tests): worked out once per test file. */
  #testFolder(owner: Owner): string {
    const recordedBy = owner === ANY_TEST ? undefined : owner
    const cut = recordedBy === undefined ? -1 : recordedBy.indexOf(' > ')
    const file = recordedBy === undefined || cut < 0 ? undefined : recordedBy.slice(0, cut)
    let folder = this.#testFolders.get(file)
    if (folder === undefined) {
      const place = testPlace(recordedBy)
      folder = place ? join(this.dir, ...place.folder) : join(this.dir, SHARED_FOLDER)
      if (this.#testFolders.size >= 4096) this.#testFolders.clear()
      this.#testFolders.set(file, folder)
    }
    return folder
  }

  #fromIndex(key: string, recordedBy: Owner): Found | undefined {
    if (!this.#index) {
      this.#index = new Map()
      for (const { path, parts } of walk(this.dir)) {
        if (parts[0] === SHARED_FOLDER && parts[1] === 'schemas') continue
        const name = parts[parts.length - 1] as string
        const prefix = V1_FILE.test(name)
          ? name.slice(0, KEY_PREFIX_LENGTH)
          : V2_FILE.exec(name)?.[1]
        if (prefix) addTo(this.#index, prefix, path)
      }
    }
    for (const file of this.#index.get(key.slice(0, KEY_PREFIX_LENGTH)) ?? []) {
      const found = this.#readCandidate(file, key, recordedBy)
      if (found) return found
    }
    return undefined
  }

  #folderNames(folder: string, fresh: boolean): Map<string, string[]> {
    let names = fresh ? undefined : this.#folders.get(folder)
    if (!names) {
      names = new Map()
      let listed: string[] = []
      try {
        listed = readdirSync(folder)
      } catch {
        // No folder yet: no entries.
      }
      for (const name of listed) {
        const prefix = V2_FILE.exec(name)?.[1]
        if (prefix) addTo(names, prefix, name)
      }
      this.#folders.set(folder, names)
    }
    return names
  }

  /**
   * The entry in `file` when it is the one of `key` recorded by `recordedBy`; a file holding
   * another key, or another test's entry of it, is passed over.
   */
  #readCandidate(file: string, key: string, recordedBy: Owner): Found | undefined {
    const first = this.#readText(file)
    if (first === undefined) return undefined
    // The request body is decoded when read: replay never reads it.
    const options = LAZY_REQUEST_BODY
    let parsed = parseEntry(first, undefined, this.#loadSchema, options)
    if (typeof parsed === 'string') {
      // A writer that does not rename atomically (an editor, a merge tool) may be mid-write: look again once.
      const second = this.#readText(file)
      if (second === undefined) return undefined
      parsed = parseEntry(second, undefined, this.#loadSchema, options)
    }
    if (typeof parsed === 'string') throw this.corrupt(file, parsed)
    if (parsed.key === key) return ownedBy(parsed, recordedBy) ? { file, entry: parsed } : undefined
    const named = basename(file).endsWith(`${parsed.key.slice(0, KEY_PREFIX_LENGTH)}.json`)
    if (!named || V1_FILE.test(basename(file))) {
      throw this.corrupt(file, `its "key" is ${parsed.key}, but the file is named for ${key}`)
    }
    return undefined
  }

  readonly #loadSchema = (hash: string): unknown => {
    const cached = this.#schemas.get(hash)
    if (cached !== undefined) return cached
    if (!/^[0-9a-f]{16}$/.test(hash)) throw new Error(`"${hash}" is not a schema hash`)
    const file = this.schemaFile(hash)
    let schema: unknown
    try {
      schema = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new Error(
        `its reply schema ${displayPath(file)} cannot be read (${(error as Error).message})`,
      )
    }
    // Frozen and shared by every entry that refers to it: entries are read, never changed, and
    // a copy per read cost more than the rest of decoding an entry.
    deepFreeze(schema)
    this.#schemas.set(hash, schema)
    return schema
  }

  /** Absolute path of a shared reply schema. */
  schemaFile(hash: string): string {
    return join(this.dir, SHARED_FOLDER, 'schemas', `${hash}.json`)
  }

  /**
   * A file's text, `undefined` when there is none. A file that exists but cannot be read (a
   * folder in its place, no permission) is `RUBRICATE_CASSETTE_CORRUPT` naming it: thrown raw,
   * the judge's SDK would take it for a connection error and retry it.
   */
  #readText(file: string): string | undefined {
    try {
      return readFileSync(file, UTF8)
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

  async #writeNow(
    entry: CassetteEntry,
    reformat: boolean,
    sameIds: boolean,
  ): Promise<{ file: string; kept: CassetteEntry | undefined }> {
    let existing: Found | undefined
    try {
      existing = this.#own(entry.key, entry.recordedBy) ?? this.#find(entry.key, entry.recordedBy)
    } catch {
      // A corrupt file of this key is replaced by the new recording.
    }
    if (
      existing &&
      sameEntry(existing.entry, entry, sameIds) &&
      !(reformat && existing.entry.v === 1)
    ) {
      this.#remember(located(entry.key, entry.recordedBy), entry.key, existing.file)
      return { file: existing.file, kept: existing.entry }
    }
    // Only the test's own entry is found, so a changed reply is written over the test's own
    // file: another test that made the same request keeps its reply.
    const overwrite = existing !== undefined && existing.entry.v === 2
    const file = overwrite
      ? (existing as Found).file
      : this.placeFor(entry.key, entry.recordedBy, entry.request.endpoint)
    await this.#writeFiles(file, entry)
    // A format-1 file of the key gives way to the format-2 one; `migrate` (`reformat`) removes it
    // itself, once the new file reads back the same. One that lies through a link outside the
    // folder is not rubricate's to delete.
    if (
      existing &&
      existing.entry.v === 1 &&
      existing.file !== file &&
      !reformat &&
      (await inside(existing.file, this.dir))
    ) {
      await rm(existing.file, { force: true }).catch(() => {})
    }
    this.#remember(located(entry.key, entry.recordedBy), entry.key, file)
    const folder = this.#folders.get(join(file, '..'))
    if (folder) addTo(folder, entry.key.slice(0, KEY_PREFIX_LENGTH), basename(file), true)
    if (this.#index) addTo(this.#index, entry.key.slice(0, KEY_PREFIX_LENGTH), file, true)
    return { file, kept: undefined }
  }

  // The entry's file, and its schema's first, so that no reader sees an entry whose schema is not
  // there yet; one written for an entry that then fails is taken back, so a failed write changes
  // nothing.
  async #writeFiles(file: string, entry: CassetteEntry): Promise<void> {
    const { text, schema } = serializeEntry(entry)
    let created: string | undefined
    try {
      if (schema) {
        const schemaFile = this.schemaFile(schema.hash)
        if (!existsSync(schemaFile)) {
          await writeAtomically(schemaFile, `${JSON.stringify(schema.schema, null, 2)}\n`, this.dir)
          created = schemaFile
        }
        this.#schemas.set(schema.hash, schema.schema)
      }
      await writeAtomically(file, text, this.dir)
    } catch (error) {
      if (created) {
        await rm(created, { force: true }).catch(() => {})
        this.#schemas.delete(schema?.hash ?? '')
        await removeEmptyFolders(dirname(created), this.dir)
      }
      if (error instanceof CassetteWriteError) throw error
      throw new CassetteWriteError(
        messages.cassetteWriteFailed(displayPath(file), (error as Error).message),
        file,
        { cause: error },
      )
    }
  }
}

/** Whose entry a lookup wants: a test's label, `undefined` outside any test, or any test's. */
type Owner = string | undefined | typeof ANY_TEST
const ANY_TEST: unique symbol = Symbol('any test')

/** Where {@link CassetteStore} remembers the file of `key` as recorded by `recordedBy`. */
function located(key: string, recordedBy: Owner): string {
  if (recordedBy === ANY_TEST) return `${key}\0*`
  return recordedBy === undefined ? key : `${key}\0${recordedBy}`
}

/**
 * True when `entry` is the recording of the test labelled `recordedBy` (`undefined`: a call made
 * outside any test). A format-1 entry that names no test predates per-test files and is served to
 * whoever asks, as it was recorded to be; `cassettes migrate` keeps it that way.
 */
function ownedBy(entry: CassetteEntry, recordedBy: Owner): boolean {
  if (recordedBy === ANY_TEST) return true
  return entry.recordedBy === recordedBy || (entry.v === 1 && entry.recordedBy === undefined)
}

/**
 * True when two entries record the same exchange, the parts that change on every call aside:
 * the recording time, response ids and creation times, stream timings and the reply's latency.
 * @internal
 */
export function sameExchange(a: CassetteEntry, b: CassetteEntry, sameIds = false): boolean {
  return stable(a, sameIds) === stable(b, sameIds)
}

// An existing entry whose request body cannot be decoded is no match: the new one replaces it.
function sameEntry(existing: CassetteEntry, entry: CassetteEntry, sameIds: boolean): boolean {
  try {
    return sameExchange(existing, entry, sameIds)
  } catch {
    return false
  }
}

// `call_id` too: a Responses function call's id, which the next request carries on (in a
// `function_call_output`, beside an `item_reference` to the call's `id`).
const VOLATILE =
  /\\?"(id|call_id|created|created_at|system_fingerprint)\\?":\s*(\\?"[^"\\]*\\?"|\d+)/g

function stable(entry: CassetteEntry, sameIds: boolean): string {
  // Which test recorded it aside too: two tests answered alike share one entry. Where it was
  // recorded aside: a loopback server's port changes every run.
  const { recordedAt: _at, v: _v, recordedBy: _by, baseURL: _base, ...rest } = entry
  const { latencyMs: _latency, ...reply } = rest.response
  const response = {
    ...reply,
    sse: reply.sse?.map((chunk) => chunk.chunk),
  }
  const text = canonicalJson({ ...rest, response })
  return sameIds ? text : text.replace(VOLATILE, '"$1":_')
}

/** Remove `folder` and its parents up to (not including) `top` while they are empty. */
async function removeEmptyFolders(folder: string, top: string): Promise<void> {
  for (
    let current = folder;
    current.startsWith(top) && current !== top;
    current = dirname(current)
  ) {
    try {
      await rmdir(current)
    } catch {
      return
    }
  }
}

function addTo(map: Map<string, string[]>, prefix: string, item: string, once = false): void {
  const list = map.get(prefix)
  if (!list) map.set(prefix, [item])
  else if (!once || !list.includes(item)) list.push(item)
}

/** Every file under `dir`, depth first, without dot-named files and folders. */
function* walk(dir: string, parts: string[] = []): Generator<{ path: string; parts: string[] }> {
  let items: import('node:fs').Dirent[]
  try {
    items = readdirSync(join(dir, ...parts), { withFileTypes: true })
  } catch {
    return
  }
  for (const item of items) {
    if (item.name.startsWith('.')) continue
    const next = [...parts, item.name]
    if (item.isDirectory()) yield* walk(dir, next)
    else yield { path: join(dir, ...next), parts: next }
  }
}

function keyInFile(file: string): string | undefined {
  try {
    return KEY_IN_TEXT.exec(readFileSync(file, 'utf8'))?.[1]
  } catch {
    return undefined
  }
}

/**
 * The folder (path parts under the cassette folder) and name of the test labelled
 * `<test file> > <test name>`: the test file's path, mirrored, with `..` and drive letters made
 * plain folder names.
 */
function testPlace(recordedBy: string | undefined): { folder: string[]; name: string } | undefined {
  if (!recordedBy) return undefined
  const cut = recordedBy.indexOf(' > ')
  if (cut < 0) return undefined
  const folder = recordedBy
    .slice(0, cut)
    .split(/[\\/]+/)
    .filter((part) => part !== '' && part !== '.')
    .map(folderName)
  if (folder.length === 0 || folder[0] === SHARED_FOLDER) folder.unshift('_tests')
  return { folder, name: recordedBy.slice(cut + 3) }
}

// Names Windows keeps for devices, whatever follows a dot (`nul.json` is the device too).
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)$/i

/**
 * A path part of a test file as a folder name every checkout can hold: `..` as `_up`; characters
 * Windows refuses (`:*?"<>|`, control characters, NUL among them, on which any file call throws)
 * as `_`; a trailing dot or space, which Windows drops, as `_`; a device name (`CON`, `nul.test`)
 * behind a `_`.
 */
function folderName(part: string): string {
  if (part === '..') return '_up'
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces.
  const plain = part.replace(/[:*?"<>|\x00-\x1f]/g, '_').replace(/[. ]$/, '_')
  const dot = plain.indexOf('.')
  return WINDOWS_DEVICE.test(dot < 0 ? plain : plain.slice(0, dot)) ? `_${plain}` : plain
}

/**
 * A file-name form of a test name: lower case, words joined by `-`, at most 60 characters. A long
 * name keeps its last part (the test's own name, without its suites), which tells tests apart.
 * @internal
 */
export function slug(name: string): string {
  const shown = slugOf(name)
  // A test named "CON" or "nul " would make a file that a Windows checkout cannot hold; a slug
  // never starts with "_" otherwise, so "_con" is no other test's.
  return WINDOWS_DEVICE.test(shown) ? `_${shown}` : shown
}

function slugOf(name: string): string {
  const whole = words(name)
  if (whole.length <= 60) return whole || 'test'
  const own = words(name.slice(name.lastIndexOf(' > ') + 1))
  if (own.length <= 60) return own || 'test'
  const cut = own.slice(0, 60)
  return cut.slice(0, cut.lastIndexOf('-') > 30 ? cut.lastIndexOf('-') : 60)
}

function words(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/**
 * Write `file` (under the cassette folder `top`) through a temp file and a rename. A folder on
 * the way that is a symbolic link out of `top` (a committed link, a checkout that made one) is
 * refused before anything is created: following it would write, and create folders, anywhere.
 */
async function writeAtomically(file: string, text: string, top: string): Promise<void> {
  const link = await linkOutside(dirname(file), top)
  if (link) {
    throw new CassetteWriteError(
      messages.cassetteLinkOutside(displayPath(file), displayPath(link.path), link.target),
      file,
    )
  }
  const temp = `${file}.${process.pid}.${threadId}.${Math.random().toString(36).slice(2, 10)}.tmp`
  try {
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(temp, text)
    await renameWithRetry(temp, file)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/**
 * The first file or folder on the way from `top` down to `path` that is a symbolic link leading
 * out of `top` (compared as real paths, so a cassette folder that is itself a link is fine);
 * `undefined` when there is none. What does not exist yet ends the walk: it is made for real.
 * @internal
 */
export async function linkOutside(
  path: string,
  top: string,
): Promise<{ path: string; target: string } | undefined> {
  const parts = relative(top, path).split(sep)
  if (parts[0] === '..' || isAbsolute(relative(top, path))) return { path, target: path }
  let realTop: string | undefined
  let current = top
  for (const part of parts) {
    if (part === '') continue
    current = join(current, part)
    let stats: Stats
    try {
      stats = await lstat(current)
    } catch {
      return undefined
    }
    if (!stats.isSymbolicLink()) continue
    realTop ??= await realpath(top)
    const target = await realpath(current).catch(() => undefined)
    if (!target || !isWithin(target, realTop)) return { path: current, target: target ?? current }
  }
  return undefined
}

/** True when `file` lies inside `top`, symbolic links followed. */
async function inside(file: string, top: string): Promise<boolean> {
  return (await linkOutside(dirname(file), top)) === undefined
}

function isWithin(path: string, top: string): boolean {
  return path === top || path.startsWith(top.endsWith(sep) ? top : top + sep)
}

/**
 * The store of a folder among `stores` (a runtime's: one instance per folder, so that every
 * caller shares its read cache and write queue), created on first use. @internal
 */
export function storeFor(stores: Map<string, CassetteStore>, dir: string): CassetteStore {
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
