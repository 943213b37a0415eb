/**
 * One HTTP exchange through the cassettes, shared by the judge's fetch, the msw handlers and the
 * fetch adapter: serve it from the store, or make it live and record it, as the mode says.
 * Replay-mode misses and refusals are thrown; each caller turns them into what its client expects.
 */

import { displayPath, testLabel } from '../../config/paths'
import type { CassetteMode, ResolvedConfig } from '../../config/resolve-config'
import { SecretInCassetteError } from '../../errors'
import { messages } from '../../messages'
import type { TestIdentity } from '../../records/records'
/** @internal */
import { type ExchangeEvent, type Occurrences, runningTest } from '../../runtime/call-context'
import type { Runtime } from '../../runtime/runtime'
import { reportUndecided } from '../../runtime/undecided-hooks'
import {
  findSecret,
  redactJson,
  redactText,
  redactUrl,
  type Secret,
  type SecretSet,
  secretSet,
} from '../redaction/redaction'
import { findSecretInStream } from '../redaction/stream-secrets'
import {
  type CassetteEntry,
  type CassetteResponse,
  ENTRY_FORMAT,
  type SseChunk,
} from '../store/cassette-entry'
import { type CassetteStore, storeFor } from '../store/cassette-store'
import { warnIfOld } from '../store/max-age'
import { streamUsage } from '../store/reply-formats'
import { baseURLOf, buildMiss } from './cassette-miss'
import { isRecordableStatus, readsCassettes } from './cassette-mode'
import { atOccurrence, type PreparedRequest, requestModel, runHook } from './prepared-request'
import {
  bodyOf,
  type ExchangeReply,
  entryReply,
  passableHeaders,
  responseReply,
  storedHeaders,
  streamFraming,
  teeStream,
} from './replay-response'

/**
 * One exchange, as a caller hands it over. The engine knows HTTP and the store; what is particular
 * to a caller (the judge's limits and cost, what it may record, its prompt version) comes in here,
 * so the engine has no branch of its own for any caller. (ARCHITECTURE.md §7.1)
 * @internal
 */
export interface ExchangeInput {
  /** Who made the request, as a miss names it: the judge's call, or an agent's model call. */
  caller: 'judge' | 'agent'
  /**
   * The request made ready for the store. Called only when the mode reads or writes cassettes.
   * `rewrite`, when given, must be applied to the URL and the body text before they are keyed: it
   * puts back the stored ids where the client carries live ones it read from a re-recorded stream
   * (ARCHITECTURE.md §7.10).
   */
  prepare: (rewrite?: ((text: string) => string) | undefined) => PreparedRequest
  /** The mode for this exchange over the configuration's: `'off'` for a request no cassette matches. */
  mode?: CassetteMode | undefined
  url: URL
  /** The worker's runtime: its stores and secrets serve this exchange. */
  runtime: Runtime
  /** The configuration of this call, resolved from `runtime` with the call site's mode. */
  config: ResolvedConfig
  test: TestIdentity | undefined
  testIsExact: boolean
  /** Stored with the entry, and compared with the nearest entry in a miss. */
  promptVersion?: string | undefined
  /**
   * Make the request live. `rewrite`, when given, must be applied to the URL and the body text
   * sent: it puts back the ids a live server issued where the client carries the recorded ones
   * (ARCHITECTURE.md §7.10).
   */
  live: (rewrite?: ((text: string) => string) | undefined) => Promise<Response>
  /** Wraps every live request, in every mode: the judge's limits. Default: none. */
  limit?: ((send: () => Promise<Response>) => Promise<Response>) | undefined
  /** Told the JSON body of each live reply that is not a stream: the judge counts its cost. */
  onLiveJson?: ((json: unknown) => void) | undefined
  /** Whether a live reply's body may be recorded: the judge records JSON only. Default: any body. */
  recordable?: ((body: { json?: unknown }) => boolean) | undefined
  /** The request carries no API key (the judge's placeholder): a miss's record command asks for one. */
  keyless?: boolean | undefined
  /** Warn once about a replayed entry that holds an HTTP error (an agent's swallowed 400). */
  warnReplayedErrors?: boolean | undefined
  onExchange?: ((event: ExchangeEvent) => void) | undefined
}

const NULL_BODY = new Set([101, 204, 205, 304])
const liveFailures = new WeakSet<object>()

/**
 * True for an error of the live exchange itself: no connection, or a reply body cut off before its
 * end. Callers pass it on as the network error it is (the client may retry), never as a
 * rubricate error.
 * @internal
 */
export function isLiveFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && liveFailures.has(error)
}

/** Rethrow an error of a live request, marked for {@link isLiveFailure}. @internal */
export function markLiveFailure(error: unknown): never {
  if (typeof error === 'object' && error !== null) liveFailures.add(error)
  throw error
}

/**
 * The one exchange of the cassette engine (ARCHITECTURE.md §7.1): the judge's calls and the
 * agents' calls all end here. The request is prepared (parsed, redacted, keyed) once, given its
 * occurrence in the running test, and served from the store when it is there: a hit is answered
 * synchronously, with nothing awaited, and builds no `Response` until its caller asks for one
 * (`ExchangeReply`). Otherwise it is a miss (mode `replay`) or goes live through the caller's
 * transport and is recorded.
 * @internal
 */
export function exchange(input: ExchangeInput): ExchangeReply | Promise<ExchangeReply> {
  const { config } = input
  const mode = input.mode ?? config.cassettes.mode
  if (mode === 'off') return offExchange(input)
  const base = input.prepare(input.runtime.ids.toStored())
  // The n-th identical request of a test is the n-th of its sequence, taken now, before anything
  // is awaited: identical requests made at once are told apart in the order they were made.
  const occurrences = occurrencesOf(base.key)
  const occurrence = takeOccurrence(occurrences)
  const request = atOccurrence(base, occurrence)
  const store = storeFor(input.runtime.stores, config.cassettes.dir)
  if (readsCassettes(mode)) {
    const hit = serve(input, request, store)
    if (hit) return hit
    if (mode === 'replay' && config.cassettes.repeatReplies) {
      // Opted in: a request made more often than it was recorded gets the last recorded reply.
      for (let earlier = occurrence - 1; earlier >= 1; earlier--) {
        const again = serve(input, atOccurrence(base, earlier), store)
        if (again) return again
      }
    }
  }
  if (mode === 'replay') return miss(input, request, store)
  // A live reply that is not recorded (a 503, a failed connection) is not made at replay: its
  // number is given back, so the retry that was recorded answers the request replay makes.
  return liveAndRecord(input, request, store, () => occurrences?.free.push(occurrence))
}

function occurrencesOf(key: string): Occurrences | undefined {
  const sequence = runningTest()?.sequence
  if (!sequence) return undefined
  let occurrences = sequence.get(key)
  if (!occurrences) {
    occurrences = { taken: 0, free: [] }
    sequence.set(key, occurrences)
  }
  return occurrences
}

/** The lowest number given back by an unrecorded request, else the next one (1 outside a test). */
function takeOccurrence(occurrences: Occurrences | undefined): number {
  if (!occurrences) return 1
  if (occurrences.free.length === 0) return ++occurrences.taken
  const lowest = Math.min(...occurrences.free)
  occurrences.free.splice(occurrences.free.indexOf(lowest), 1)
  return lowest
}

async function offExchange(input: ExchangeInput): Promise<ExchangeReply> {
  // Nothing is read or written, so the request is never prepared (no parse, redaction or key).
  const started = performance.now()
  const response = await limited(input)
  if (input.onLiveJson && response.headers.get('content-type')?.includes('json') === true) {
    const json = await response
      .clone()
      .json()
      .catch(() => undefined)
    input.onLiveJson(json)
  }
  input.onExchange?.({ source: 'live', latencyMs: performance.now() - started })
  return responseReply(response)
}

async function miss(
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
    displayModel: request.model ?? requestModel(undefined, input.url.pathname),
    request: `${request.method} ${redactUrl(input.url.href)}`,
    test: input.test,
    testIsExact: input.testIsExact,
    promptVersion: input.promptVersion,
    occurrence: request.occurrence,
    baseURL: baseURLOf(input.url, request.endpoint),
    keyless: input.keyless,
  })
  input.runtime.session.recordMiss(record)
  // Told before it is thrown: the agent's client or the code under test may swallow it.
  reportUndecided(error)
  throw error
}

function serve(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
): ExchangeReply | undefined {
  const entry = store.readOwn(request.key, input.test && testLabel(input.test))
  if (!entry) return undefined
  return served(input, entry, store)
}

function served(input: ExchangeInput, entry: CassetteEntry, store: CassetteStore): ExchangeReply {
  warnIfOld(entry, store.file(entry.key, entry.recordedBy), input.config.cassettes.maxAge)
  if (input.warnReplayedErrors && !isSuccess(entry.response.status))
    warnReplayedError(entry, store, input.runtime.process.told.replayedErrors)
  input.runtime.session.markUsed(entry.key)
  input.onExchange?.({
    source: 'replayed',
    key: entry.key,
    file: store.relativeFile(entry.key, entry.recordedBy),
    reply: () => (entry.response.sse ? usageEvent(entry.response.sse) : entry.response.json),
    latencyMs: entry.response.latencyMs ?? entry.response.sse?.at(-1)?.t,
  })
  return entryReply(entry, { timings: input.config.cassettes.replayTimings })
}

async function liveAndRecord(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
  unrecorded: () => void,
): Promise<ExchangeReply> {
  const started = performance.now()
  const live = await limited(input, input.runtime.ids.toLive()).catch((error: unknown) => {
    unrecorded()
    throw error
  })
  const call: LiveCall = { input, request, store, unrecorded, started }
  const framing = streamFraming(live.headers)
  if (framing && isRecordableStatus(live.status) && live.body) {
    return recordStream(call, live, framing)
  }
  return recordBody(call, live)
}

/** A live call on its way to the store. */
interface LiveCall {
  input: ExchangeInput
  request: PreparedRequest
  store: CassetteStore
  /** Gives the request's sequence number back: its reply was not recorded. */
  unrecorded: () => void
  started: number
}

// Tell the caller how the exchange ended: recorded (with its file) or live only.
function finish(
  call: LiveCall,
  recorded: boolean,
  key = call.request.key,
  reply?: () => unknown,
  latencyMs = performance.now() - call.started,
): void {
  call.input.onExchange?.({
    source: recorded ? 'recorded' : 'live',
    key,
    latencyMs,
    ...(recorded ? { file: call.store.relativeFile(key, recordedByOf(call.input)) } : {}),
    ...(reply === undefined ? {} : { reply }),
  })
}

// A stream is passed on as it comes and recorded once the client has read it to its end.
function recordStream(
  call: LiveCall,
  live: Response,
  framing: NonNullable<ReturnType<typeof streamFraming>>,
): ExchangeReply {
  const { input, request } = call
  let endedBy: string | undefined
  const { response, done, stop } = teeStream(live, framing, async (chunks?: SseChunk[]) => {
    if (!chunks) {
      call.unrecorded()
      finish(call, false)
      if (endedBy !== undefined) {
        const label = `${request.method} ${redactUrl(input.url.href)}`
        input.runtime.session.recordError(new Error(messages.streamOutlivedTest(label, endedBy)))
      }
      return
    }
    await recordEndedStream(call, live, chunks)
  })
  input.runtime.session.trackStream(done, input.test, (ended) => {
    endedBy = ended
    stop()
  })
  return responseReply(response)
}

async function recordEndedStream(call: LiveCall, live: Response, chunks: SseChunk[]) {
  const { input } = call
  // A stream's cost is in its last event that carries usage.
  const usage = () => usageEvent(chunks)
  if (input.onLiveJson) {
    const event = usage()
    if (event !== undefined) input.onLiveJson(event)
  }
  try {
    // A stream unchanged but for its ids keeps its stored entry, and its ids are learnt, so the
    // next request finds the stored chain's next entry as replay will (ARCHITECTURE.md §7.10).
    const written = await record(input, call.request, call.store, {
      status: live.status,
      headers: storedHeaders(live.headers),
      sse: chunks,
    })
    if (written?.kept?.response.sse)
      input.runtime.ids.learnStream(written.kept.response.sse, chunks)
    finish(call, written !== undefined, written?.key, usage)
  } catch (error) {
    finish(call, false)
    input.runtime.session.recordError(error as Error)
  }
}

async function recordBody(call: LiveCall, live: Response): Promise<ExchangeReply> {
  const { input } = call
  const aliases = input.runtime.ids
  const bytes = aliases.toStoredBytes(
    new Uint8Array(
      await live.arrayBuffer().catch((error: unknown) => {
        call.unrecorded()
        return markLiveFailure(error)
      }),
    ),
  )
  const body = bodyOf(bytes, live.headers)
  // Kept with the reply, so a replayed call reports the latency it was recorded with.
  const latencyMs = Math.round(performance.now() - call.started)
  input.onLiveJson?.(body.json)
  const usable = input.recordable?.(body) ?? true
  if (isRecordableStatus(live.status) && usable) {
    const written = await record(input, call.request, call.store, {
      status: live.status,
      headers: storedHeaders(live.headers),
      ...body,
      latencyMs,
    })
    finish(call, written !== undefined, written?.key, () => body.json, latencyMs)
    if (written?.kept) {
      // The store kept its entry, unchanged but for its ids: the client is served the stored
      // reply, so the ids it carries on are those the next entry was recorded with.
      aliases.learn(written.kept.response.json, body.json)
      return entryReply(written.kept)
    }
  } else {
    call.unrecorded()
    finish(call, false, call.request.key, () => body.json, latencyMs)
  }
  return responseReply(
    new Response(NULL_BODY.has(live.status) ? null : (bytes as Uint8Array<ArrayBuffer>), {
      status: live.status,
      statusText: live.statusText,
      headers: passableHeaders(live.headers),
    }),
  )
}

function recordedByOf(input: ExchangeInput): string | undefined {
  return input.test ? testLabel(input.test) : undefined
}

function limited(
  input: ExchangeInput,
  rewrite?: ((text: string) => string) | undefined,
): Promise<Response> {
  const live = () => input.live(rewrite).catch(markLiveFailure)
  return input.limit ? input.limit(live) : live()
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
}

/**
 * Say once per entry and process (`told`, the runtime's) that an agent's call was answered with a
 * recorded HTTP error: an app that swallows the error would otherwise pass its test on a failed call.
 */
function warnReplayedError(entry: CassetteEntry, store: CassetteStore, told: Set<string>): void {
  if (told.has(entry.key)) return
  told.add(entry.key)
  console.warn(
    messages.cassetteReplayedError(
      displayPath(store.file(entry.key, entry.recordedBy)),
      entry.request.endpoint,
      entry.response.status,
      entry.recordedBy,
    ),
  )
}

// A secret a URL holds in its path (a proxy's token segment) is redacted like any other.
function redactedBase(base: string | undefined, secrets: ReturnType<typeof secretSet>) {
  return base === undefined ? undefined : redactText(base, secrets)
}

/** True when the store holds a successful reply for `key` (an unreadable file holds none). */
function holdsSuccess(store: CassetteStore, key: string, recordedBy?: string): boolean {
  try {
    const entry = store.readOwn(key, recordedBy)
    return entry !== undefined && isSuccess(entry.response.status)
  } catch {
    return false
  }
}

function redactedEntry(
  input: ExchangeInput,
  request: PreparedRequest,
  response: CassetteResponse,
  secrets: SecretSet,
): CassetteEntry {
  return {
    v: ENTRY_FORMAT,
    key: request.key,
    promptVersion: input.promptVersion,
    recordedAt: new Date().toISOString(),
    recordedBy: input.test ? testLabel(input.test) : undefined,
    baseURL: redactedBase(baseURLOf(input.url, request.endpoint), secrets),
    request: {
      method: request.method,
      endpoint: request.endpoint,
      body: request.body,
      ...(request.query === undefined ? {} : { query: request.query }),
      ...(request.trial === undefined ? {} : { trial: request.trial }),
      ...(request.occurrence === undefined ? {} : { occurrence: request.occurrence }),
      ...(request.hook === undefined ? {} : { hook: request.hook }),
    },
    response: {
      ...response,
      json: response.json === undefined ? undefined : redactJson(response.json, secrets),
      text: response.text === undefined ? undefined : redactText(response.text, secrets),
      sse: response.sse?.map((chunk) => ({ t: chunk.t, chunk: redactText(chunk.chunk, secrets) })),
    },
  }
}

// The rescan after the user's hook: an entry that still holds a known secret is never written.
function refuseSecrets(entry: CassetteEntry, secrets: SecretSet): void {
  const where = `${entry.key} (${entry.request.endpoint})`
  const leak = findSecret(entry, secrets)
  if (leak) throw new SecretInCassetteError(messages.secretInCassette(where, leak.label, leak.path))
  const spelled = entry.response.sse && findSecretInStream(entry.response.sse, secrets)
  if (spelled) {
    throw new SecretInCassetteError(messages.secretInStream(where, spelled.label, spelled.path))
  }
}

/**
 * Redact, hook, rescan, write; the key written, or `undefined` when nothing was: a failed exchange
 * (an HTTP error) is never written over a successful recording of the same request.
 * @internal
 */
async function record(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
  response: CassetteResponse,
  options: { sameIds?: boolean } = {},
): Promise<{ key: string; kept: CassetteEntry | undefined } | undefined> {
  // Redacted of the secrets known now, the environment read again before anything is written.
  const secrets = secretSet(input.runtime.secrets.refresh(), request.secrets.secrets as Secret[])
  let entry = redactedEntry(input, request, response, secrets)
  const hook = input.config.cassettes.redact
  if (hook) {
    // The request went through the hook before keying; only the reply is the hook's to change now.
    const keyed = entry.request
    entry = runHook(hook, structuredClone(entry))
    entry.request = keyed
  }
  refuseSecrets(entry, secrets)
  if (!isSuccess(entry.response.status) && holdsSuccess(store, entry.key, entry.recordedBy)) {
    console.warn(
      messages.failedExchangeNotRecorded(
        displayPath(store.file(entry.key, entry.recordedBy)),
        entry.request.endpoint,
        entry.response.status,
      ),
    )
    return undefined
  }
  const written = await store.record(entry, options)
  input.runtime.session.markUsed(entry.key)
  return { key: entry.key, kept: written.kept }
}

/**
 * The reply that carries a stream's usage, in its format's shape (OpenAI's last chunk with
 * `usage`, the Responses API's completed response, Anthropic's message with its final usage,
 * Gemini's last chunk with `usageMetadata`), parsed by the one stream reader; `undefined` when
 * none does.
 * @internal
 */
export function usageEvent(chunks: readonly SseChunk[]): unknown {
  return streamUsage(chunks)
}
