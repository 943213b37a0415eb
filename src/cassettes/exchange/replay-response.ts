import type { CassetteEntry, CassetteResponse, SseChunk } from '../store/cassette-entry'

/**
 * Turning recorded replies back into `Response`s, and live replies into what is recorded. Live
 * replies are rebuilt without `content-encoding`, `content-length` and `transfer-encoding`: Node's
 * fetch has already decoded the body, and passing `content-encoding: gzip` on makes msw (or the
 * client) decode it a second time, which crashes with `Z_DATA_ERROR`.
 */

const HOP_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
])
const encoder = new TextEncoder()
const wholeReplies = new WeakSet<Response>()

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

/** A live reply, or one built already, as the exchange's answer. @internal */
export function responseReply(response: Response): ExchangeReply {
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: () => response.text(),
    response: () => response,
  }
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

/** The headers of a live reply, minus the ones that describe the wire encoding. @internal */
export function passableHeaders(headers: Headers): Headers {
  const out = new Headers()
  headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) out.append(name, value)
  })
  return out
}

/** The response headers worth storing: only `content-type`. @internal */
export function storedHeaders(headers: Headers): Record<string, string> {
  const type = headers.get('content-type')
  return type ? { 'content-type': type } : {}
}

/**
 * How a streamed reply splits into the events that are recorded one by one: a server-sent event
 * ends with a blank line, an NDJSON line (Ollama's `/api/chat`, `application/x-ndjson`) with a
 * newline. `undefined` for a reply that is not a stream.
 * @internal
 */
export function streamFraming(headers: Headers): RegExp | undefined {
  const type = (headers.get('content-type') ?? '').toLowerCase()
  if (type.includes('text/event-stream')) return /\r\n\r\n|\n\n|\r\r/
  if (/ndjson|jsonl/.test(type)) return /\r?\n/
  return undefined
}

/** The body of a whole live reply in its stored form: parsed JSON, text, or base64. @internal */
export function bodyOf(
  bytes: Uint8Array,
  headers: Headers,
): Pick<CassetteResponse, 'json' | 'text' | 'base64'> {
  const text = decodeUtf8(bytes)
  if (text === undefined) return { base64: Buffer.from(bytes).toString('base64') }
  if ((headers.get('content-type') ?? '').includes('json') && text.trim()) {
    try {
      return { json: JSON.parse(text) }
    } catch {
      // A 200 with a malformed JSON body is kept as text, so the client fails the same way on replay.
    }
  }
  return { text }
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/**
 * Return the stream to the client as it arrives and record a copy: the body is split with `tee()`,
 * one branch goes back at once (awaiting the whole body first would deliver every chunk at the
 * end), the other is read here into `{ t, chunk }` events, one per SSE event or NDJSON line as
 * `framing` ({@link streamFraming}) ends them. `onDone` gets the events when the stream ends
 * cleanly, `undefined` when it errors or is stopped (`stop()`, when its test has ended): a
 * truncated stream is never recorded.
 * @internal
 */
export function teeStream(
  live: Response,
  framing: RegExp,
  onDone: (chunks: SseChunk[] | undefined) => Promise<void>,
): { response: Response; done: Promise<void>; stop: () => void } {
  const body = live.body
  if (!body) {
    return {
      response: new Response(null, { status: live.status, headers: passableHeaders(live.headers) }),
      done: onDone([]),
      stop: () => {},
    }
  }
  const [forClient, forRecord] = body.tee()
  const started = performance.now()
  const reader = forRecord.getReader()
  // Stopping cancels the recording's branch: its pending read ends, and nothing is recorded.
  let stopped = false
  const stop = () => {
    stopped = true
    reader.cancel().catch(() => {})
  }
  const done = (async () => {
    const chunks: SseChunk[] = []
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for (;;) {
        const { value, done: finished } = await reader.read()
        if (stopped) return onDone(undefined)
        if (finished) break
        buffer += decoder.decode(value, { stream: true })
        buffer = takeEvents(buffer, framing, chunks, Math.round(performance.now() - started))
      }
    } catch {
      return onDone(undefined)
    }
    buffer += decoder.decode()
    if (buffer) chunks.push({ t: Math.round(performance.now() - started), chunk: buffer })
    return onDone(chunks)
  })()
  // Framed as chunked, so that a stream cut off upstream is cut off for the client too: msw 3
  // writes a mocked response to a socket, and without framing the client would take the closed
  // connection for the end of the stream. (msw 2 hands the Response over as it is.)
  const headers = passableHeaders(live.headers)
  headers.set('transfer-encoding', 'chunked')
  return {
    response: new Response(forClient, {
      status: live.status,
      statusText: live.statusText,
      headers,
    }),
    done,
    stop,
  }
}

function takeEvents(buffer: string, framing: RegExp, chunks: SseChunk[], t: number): string {
  let rest = buffer
  for (;;) {
    const found = framing.exec(rest)
    if (!found) return rest
    const end = found.index + found[0].length
    chunks.push({ t, chunk: rest.slice(0, end) })
    rest = rest.slice(end)
  }
}
