/**
 * Serving a recorded entry (ARCHITECTURE.md §7.2): the test's own entry is read, warned about when
 * old or an HTTP error, reported, and answered as an `ExchangeReply` that builds its `Response`
 * only when asked (a replayed stream is replayed event by event).
 */

import { testLabel } from '../../config/paths'
import { messages } from '../../messages'
import type { CassetteEntry, SseChunk } from '../store/cassette-entry'
import type { CassetteStore } from '../store/cassette-store'
import { usageEvent } from '../store/stream-events'
import { atOccurrence, type ExchangeInput, type PreparedRequest } from './prepared-request'

const encoder = new TextEncoder()

const wholeReplies = new WeakSet<Response>()

/**
 * The test's own entry for `request`, served; `undefined` when the store has none. With `repeat`
 * (`cassettes.repeatReplies`, replay only), a request made more often than it was recorded gets
 * the last recorded reply.
 * @internal
 */
export function serve(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
  repeat = false,
): ExchangeReply | undefined {
  const recordedBy = input.test && testLabel(input.test)
  const first = request.occurrence ?? 1
  for (let occurrence = first; occurrence >= (repeat ? 1 : first); occurrence--) {
    const entry = store.readOwn(atOccurrence(request, occurrence).key, recordedBy)
    if (entry) return served(input, entry, store)
  }
  return undefined
}

function served(input: ExchangeInput, entry: CassetteEntry, store: CassetteStore): ExchangeReply {
  const reply = entryReply(entry, { timings: input.config.cassettes.replayTimings })
  warnIfOld(entry, store, input.config.cassettes.maxAge, input.runtime.process.told.oldEntries)
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
  return reply
}

// Warn once per process when a replayed entry is older than `maxAge` (ARCHITECTURE.md §7.8).
function warnIfOld(
  entry: CassetteEntry,
  store: CassetteStore,
  maxAge: { value: string | number; ms: number } | undefined,
  warned: Set<string>,
  now: number = Date.now(),
): void {
  if (maxAge === undefined || warned.has(entry.key)) return
  const age = now - Date.parse(entry.recordedAt)
  if (!(age > maxAge.ms)) return
  warned.add(entry.key)
  const file = store.shownFile(entry.key, entry.recordedBy)
  console.warn(messages.cassetteTooOld(file, age, maxAge.value))
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
      store.shownFile(entry.key, entry.recordedBy),
      entry.request.endpoint,
      entry.response.status,
      entry.recordedBy,
    ),
  )
}

/** A 2xx status. @internal */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
}

/**
 * What the exchange answers with (ARCHITECTURE.md §7.1): a recorded entry, or a web `Response`
 * (a live reply, one the client reads as it streams). A caller that hands it on (msw, a client's
 * fetch, the judge's SDK) takes {@link ExchangeReply.response}; the judge in replay mode reads its
 * status, a header and its text, and a recorded JSON reply answers those without a `Response`,
 * whose first one loads Node's fetch (undici) in every replaying file (ARCHITECTURE.md §10).
 * @internal
 */
export interface ExchangeReply {
  readonly status: number
  /** Served from a cassette entry ({@link entryReply}), not from the network. */
  readonly recorded?: boolean | undefined
  /** A header's value by its name, `null` when it has none, as `Headers.get` reads it. */
  header(name: string): string | null
  /** The body as text, as `Response.text()` reads it. */
  text(): Promise<string>
  /** The reply as a `Response`, the same one at every call. */
  response(): Response
}

/**
 * A recorded entry as the exchange's answer. Its `Response` is {@link replayResponse}'s, built
 * at the first call of `response()`. A whole JSON body with a status that may carry one (what a
 * judge records) answers `status`, `header` and `text` from the entry; any other body, from that
 * `Response`. test/cassettes/exchange-reply.test.ts holds the two readings equal.
 * @internal
 */
export function entryReply(
  entry: CassetteEntry,
  options: { timings?: boolean | undefined } = {},
): ExchangeReply {
  let built: Response | undefined
  const response = () => {
    built ??= replayResponse(entry, options)
    return built
  }
  const recorded = entry.response
  const wholeJson =
    recorded.json !== undefined &&
    recorded.sse === undefined &&
    recorded.text === undefined &&
    recorded.base64 === undefined &&
    recorded.status >= 200 &&
    recorded.status <= 599 &&
    !NULL_BODY_STATUS.has(recorded.status)
  if (!wholeJson) {
    return {
      status: recorded.status,
      recorded: true,
      header: (name) => response().headers.get(name),
      text: async () => response().text(),
      response,
    }
  }
  return {
    status: recorded.status,
    recorded: true,
    header: (name) => recordedHeader(recorded.headers, name),
    // What `new Response(JSON.stringify(json)).text()` gives back: the text is well formed
    // (JSON.stringify escapes a lone surrogate) and cannot start with a byte-order mark.
    text: async () => JSON.stringify(recorded.json),
    response,
  }
}

// The statuses whose `Response` may have no body: the constructor throws for one with a body.
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])

// A header of a recorded reply as `Headers.get` reads it from the same record: names match
// whatever their case, values lose their surrounding whitespace, a repeated name joins its values
// with ", ", and a string body with no content type is `text/plain;charset=UTF-8`.
function recordedHeader(headers: Record<string, string>, name: string): string | null {
  const wanted = name.toLowerCase()
  const values: string[] = []
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) values.push(trimHttpWhitespace(value))
  }
  if (values.length > 0) return values.join(', ')
  return wanted === 'content-type' ? 'text/plain;charset=UTF-8' : null
}

// Tab, LF, CR and space at either end (HTTP's whitespace; `trim()` takes more).
function trimHttpWhitespace(value: string): string {
  const isSpace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32
  let start = 0
  let end = value.length
  while (start < end && isSpace(value.charCodeAt(start))) start++
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--
  return value.slice(start, end)
}

/** A `Response` serving a recorded entry. Streams are replayed event by event. @internal */
export function replayResponse(
  entry: CassetteEntry,
  options: { timings?: boolean | undefined } = {},
): Response {
  const { response } = entry
  const init = { status: response.status, headers: response.headers }
  if (response.sse !== undefined)
    return new Response(sseStream(response.sse, options.timings ?? false), init)
  const replay =
    response.text !== undefined
      ? new Response(response.text, init)
      : response.base64 !== undefined
        ? new Response(Buffer.from(response.base64, 'base64'), init)
        : new Response(JSON.stringify(response.json), init)
  wholeReplies.add(replay)
  return replay
}

/**
 * True for a reply that {@link replayResponse} built from a whole recorded body: it is already in
 * memory, so it cannot break off mid-way the way a live body can.
 * @internal
 */
export function isWholeReplay(response: Response): boolean {
  return wholeReplies.has(response)
}

// Without timings, events go out in pieces of about this many characters: a stream read slower
// than it is produced (msw's unread clone of every response, a client that parses as it goes)
// queues every piece, and Node's stream queues dequeue with Array#shift, so one piece per event
// made a long replay quadratic. SSE and NDJSON parsers do not care where pieces break.
const PIECE_CHARS = 64 * 1024

function sseStream(chunks: SseChunk[], timings: boolean): ReadableStream<Uint8Array> {
  if (!timings) return coalescedStream(chunks)
  let index = 0
  let previous = 0
  return new ReadableStream({
    async pull(controller) {
      const next = chunks[index++]
      if (!next) {
        controller.close()
        return
      }
      if (timings && next.t > previous)
        await new Promise((resolve) => setTimeout(resolve, next.t - previous))
      previous = next.t
      controller.enqueue(encoder.encode(next.chunk))
    },
  })
}

function coalescedStream(chunks: SseChunk[]): ReadableStream<Uint8Array> {
  let index = 0
  return new ReadableStream({
    pull(controller) {
      if (index >= chunks.length) {
        controller.close()
        return
      }
      const piece: string[] = []
      let size = 0
      while (index < chunks.length && (size === 0 || size < PIECE_CHARS)) {
        const chunk = (chunks[index++] as SseChunk).chunk
        piece.push(chunk)
        size += chunk.length
      }
      controller.enqueue(encoder.encode(piece.join('')))
    },
  })
}
