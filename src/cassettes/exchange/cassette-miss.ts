/**
 * The replay-mode miss (ARCHITECTURE.md §7.5): what missed, the nearest recorded entry with the
 * JSON paths that differ (a prompt version change called out as such), and the command that
 * records it. The nearest entry is the one of the same endpoint and model, recorded by the same
 * test if possible, with the fewest differing JSON paths, and of those the one whose text shares
 * the most with the request's at its start and end. It is found from an index of the folder
 * (endpoint, model, test of every entry) kept in the scratch folder; entries are
 * content-addressed, so the index only ever parses files it has not seen.
 */

import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { displayPath, scratchDir, testLabel } from '../../config/paths'
import type { ResolvedConfig } from '../../config/resolve-config'
import { CassetteMissError } from '../../errors'
import { messages } from '../../messages'
import type { CassetteMissRecord, TestIdentity } from '../../records/records'
import { reportUndecided } from '../../runtime/undecided-hooks'
import { redactUrl } from '../redaction/redaction'
import { canonicalJson } from '../store/canonical-json'
import type { CassetteEntry } from '../store/cassette-entry'
import type { CassetteStore } from '../store/cassette-store'
import { diffPaths, firstTextChange, sharedEnds, type TextChange } from '../store/json-diff'
import { requestModel } from '../store/model-endpoint'
import type { ExchangeInput, PreparedRequest } from './prepared-request'
import { recordCommand, recordEnv } from './record-command'

/**
 * Fail a request that replay mode cannot serve: the miss is recorded in the session and told
 * before it is thrown, as the agent's client or the code under test may swallow it.
 * @internal
 */
export async function miss(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
): Promise<never> {
  const { error, record } = await buildMiss({
    path: input.caller,
    config: input.config,
    store,
    endpoint: request.endpoint,
    key: request.key,
    body: request.body,
    model: request.model,
    request: `${request.method} ${redactUrl(input.url.href)}`,
    test: input.test,
    testIsExact: input.testIsExact,
    promptVersion: input.promptVersion,
    occurrence: request.occurrence,
    baseURL: request.baseURL,
    keyless: input.keyless,
  })
  input.runtime.session.recordMiss(record)
  reportUndecided(error)
  throw error
}

/** What is known about a request that missed. @internal */
export interface MissInput {
  /** `judge`: thrown as `CassetteMissError`; `agent`: answered with an HTTP 400. */
  path: 'judge' | 'agent'
  config: ResolvedConfig
  store: CassetteStore
  endpoint: string
  key: string
  /** The keyed body. */
  body: unknown
  /** The request's model (the body's, else its path's: an Azure deployment), shown and used to find the nearest entry. */
  model: string | undefined
  /** `POST <url>` of an agent's call, secrets removed. */
  request?: string | undefined
  test: TestIdentity | undefined
  /** The test came from the call context (exact), not from the session (a guess under test.concurrent). */
  testIsExact: boolean
  promptVersion?: string | undefined
  /** The n-th identical request of its test (from 2), when it is not the first. */
  occurrence?: number | undefined
  /** Where this request goes (`PreparedRequest.baseURL`). */
  baseURL?: string | undefined
  /** The request carries no API key (the judge's placeholder): recording needs one. */
  keyless?: boolean | undefined
}

/** The error and the record of a miss. @internal */
export async function buildMiss(
  input: MissInput,
): Promise<{ error: CassetteMissError; record: CassetteMissRecord }> {
  const { test } = input
  const recordedBy = test ? testLabel(test) : undefined
  const nearest = await findNearest(input.store, {
    endpoint: input.endpoint,
    model: input.model,
    body: input.body,
    recordedBy,
  }).catch(() => undefined)
  const dir = `${displayPath(input.config.cassettes.dir)}/`
  const facts = [
    ...requestFacts(input),
    ...(nearest ? nearestFacts(input, nearest, recordedBy) : [noNearest(input, dir)]),
  ]
  const message = messages.cassetteMiss({
    what: input.path === 'judge' ? 'judge call' : `model call (${input.request ?? input.endpoint})`,
    modeReason: modeReason(input.config),
    consequence: input.path === 'agent' ? '; the client got an HTTP 400' : '',
    facts,
    command: test
      ? recordEnv(input, nearest?.entry.baseURL) +
        recordCommand(test, input.path === 'judge' || input.testIsExact)
      : undefined,
    dir,
  })
  const error = new CassetteMissError(message, input.key)
  return {
    error,
    // The error's message, link included: the file's failure prints it for a swallowed miss.
    record: {
      key: input.key,
      endpoint: input.endpoint,
      model: input.model,
      test: test?.name,
      message: error.message,
    },
  }
}

type Fact = [string, string]

/** What the missed request was: its test, endpoint, model, key and place in the test's sequence. */
function requestFacts(input: MissInput): Fact[] {
  const { test } = input
  const facts: Fact[] = []
  if (input.path === 'agent' && test) facts.push(['file', displayPath(test.file)])
  if (test) {
    facts.push([
      'test',
      input.testIsExact ? testLabel(test) : `${test.name} (the test running at the time)`,
    ])
  } else if (input.path === 'judge') {
    facts.push(['test', 'none (the call was made outside a test)'])
  }
  facts.push(['endpoint', input.endpoint])
  facts.push(['model', input.model ?? 'none'])
  facts.push(['key', input.key])
  if (input.occurrence !== undefined) {
    facts.push(['occurrence', messages.cassetteMissOccurrence(input.occurrence)])
  }
  return facts
}

/** How the nearest recorded entry differs: where, which text, which tool, which prompt version. */
function nearestFacts(
  input: MissInput,
  nearest: NearestEntry,
  recordedBy: string | undefined,
): Fact[] {
  const by = nearest.entry.recordedBy ? ` (recorded by "${nearest.entry.recordedBy}")` : ''
  const facts: Fact[] = [['nearest', `${displayPath(nearest.file)}${by}`]]
  const at = nearest.entry.baseURL
  if (at !== undefined && input.baseURL !== undefined && at !== input.baseURL) {
    facts.push(['recorded', messages.cassetteMissRecordedAt(at, input.baseURL)])
  }
  const shown = nearest.paths.slice(0, 6).join(', ')
  const more = nearest.paths.length > 6 ? ` and ${nearest.paths.length - 6} more` : ''
  facts.push([
    'differs',
    nearest.paths.length ? `${shown}${more}` : sameBody(nearest, input, recordedBy),
  ])
  const { change } = nearest
  if (change) facts.push(['changed', messages.cassetteMissTextChange(change)])
  const tool = change && toolResultAt(input.body, change.path)
  if (tool !== undefined) facts.push(['tool', messages.cassetteMissToolResult(tool)])
  // Only between two versioned judge prompts: an entry without a version (an agent's call, a
  // scorer's own prompt) that happens to be nearest says nothing about the rubric prompt.
  const recorded = nearest.entry.promptVersion
  if (
    input.path === 'judge' &&
    recorded !== undefined &&
    input.promptVersion !== undefined &&
    recorded !== input.promptVersion
  ) {
    facts.push(['prompt', messages.promptVersionChanged(recorded, input.promptVersion)])
  }
  return facts
}

function noNearest(input: MissInput, dir: string): Fact {
  const model = input.model === undefined ? 'no model' : `model "${input.model}"`
  return ['nearest', `none: ${dir} holds no entry for endpoint "${input.endpoint}" and ${model}`]
}

/**
 * The tool whose result (a chat `role: 'tool'` message's content, a Responses
 * `function_call_output`'s output) holds `path`, `''` when its name is not in the body, or
 * `undefined` when the path is not in a tool result: a tool that answers differently on every
 * run changes the next request, and a re-record cannot fix that.
 */
function toolResultAt(body: unknown, path: string): string | undefined {
  const found = /^(messages|input)\[(\d+)\]\.(content|output)\b/.exec(path)
  if (!found || body === null || typeof body !== 'object') return undefined
  const list = (body as Record<string, unknown>)[found[1] as string]
  const item = Array.isArray(list) ? (list[Number(found[2])] as Record<string, unknown>) : undefined
  if (!item || typeof item !== 'object') return undefined
  const isResult =
    (found[1] === 'messages' && item.role === 'tool' && found[3] === 'content') ||
    (found[1] === 'input' && item.type === 'function_call_output' && found[3] === 'output')
  if (!isResult) return undefined
  // The name is on the call the result answers: an assistant message's tool_calls, or a
  // function_call item with the same call id.
  const callId = item.tool_call_id ?? item.call_id
  for (const other of list as Record<string, unknown>[]) {
    if (other?.type === 'function_call' && other.call_id === callId) return String(other.name)
    for (const call of Array.isArray(other?.tool_calls) ? other.tool_calls : []) {
      if (call?.id === callId) return String(call.function?.name ?? '')
    }
  }
  return typeof item.name === 'string' ? item.name : ''
}

/**
 * Why an entry with the same body is no hit: another test's recording, another number in the
 * test's sequence, or the key format.
 */
function sameBody(nearest: NearestEntry, input: MissInput, recordedBy: string | undefined): string {
  if (nearest.entry.key === input.key && nearest.entry.recordedBy !== recordedBy) {
    return messages.cassetteMissOtherTest(nearest.entry.recordedBy)
  }
  const recorded = nearest.entry.request.occurrence ?? 1
  const made = input.occurrence ?? 1
  return recorded === made
    ? messages.cassetteMissKeyFormat()
    : messages.cassetteMissOtherOccurrence(recorded, made)
}

/**
 * Why the mode is what it is, for messages: `CI is set`, `CI detected: jenkins, from JENKINS_URL`,
 * `RUBRICATE_CASSETTES=replay`...
 * @internal
 */
export function modeReason(config: ResolvedConfig): string {
  const { mode, modeSource } = config.cassettes
  switch (modeSource) {
    case 'call':
      return `{ cassettes: '${mode}' } at the call site`
    case 'env':
      return `RUBRICATE_CASSETTES=${mode}`
    case 'configure':
      return 'set with configureRubricate'
    case 'plugin':
      return 'set in the plugin options'
    default: {
      const { ci } = config.cassettes
      if (mode === 'record') return 'vitest runs with -u'
      if (mode !== 'replay') return 'the default'
      return ci.provider ? `CI detected: ${ci.provider}, from ${ci.variable}` : 'CI is set'
    }
  }
}

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
  /** The first text the request changed from the entry's, found with the entry. */
  change: TextChange | undefined
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
  let best: (Omit<NearestEntry, 'change'> & { sameTest: boolean; shared?: number }) | undefined
  let requestText: string | undefined
  for (const [key, item] of candidates) {
    const file = item.file
    const entry = store.listedEntry(file, key)
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
  if (!best) return undefined
  const { entry, file, paths } = best
  return { entry, file, paths, change: firstTextChange(entry.request.body, request.body) }
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
    const entry = store.listedEntry(entryFile, key)
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
