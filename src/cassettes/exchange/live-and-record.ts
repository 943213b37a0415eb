/**
 * The live call and its recording: the request goes out through the caller's transport (and its
 * limits); a whole reply is stored as JSON, text or base64, a stream is passed on as it comes and
 * recorded once it has ended (`record-entry.ts` writes the entry). Live replies are passed on
 * without `content-encoding`, `content-length` and `transfer-encoding`: Node's fetch has already
 * decoded the body, and passing `content-encoding: gzip` on makes msw (or the client) decode it a
 * second time, which crashes with `Z_DATA_ERROR`.
 */

import { messages } from '../../messages'
import { redactUrl } from '../redaction/redaction'
import type { CassetteResponse, SseChunk } from '../store/cassette-entry'
import type { CassetteStore } from '../store/cassette-store'
import { usageEvent } from '../store/stream-events'
import type { ExchangeInput, PreparedRequest } from './prepared-request'
import { type Recorded, record } from './record-entry'
import { type ExchangeReply, entryReply } from './replay'

const NULL_BODY = new Set([101, 204, 205, 304])

const HOP_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
])

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

/** A live reply, or one built already, as the exchange's answer. @internal */
export function responseReply(response: Response): ExchangeReply {
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: () => response.text(),
    response: () => response,
  }
}

/** Mode `off`: the request goes live as it is, nothing read or written. @internal */
export async function offExchange(input: ExchangeInput): Promise<ExchangeReply> {
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

function limited(
  input: ExchangeInput,
  rewrite?: ((text: string) => string) | undefined,
): Promise<Response> {
  const live = () => input.live(rewrite).catch(markLiveFailure)
  return input.limit ? input.limit(live) : live()
}

/**
 * Make the request live and record its reply. `unrecorded` gives the request's number in its
 * test's sequence back when nothing is recorded. @internal
 */
export async function liveAndRecord(
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
  recorded: Recorded | undefined,
  reply?: () => unknown,
  latencyMs = performance.now() - call.started,
): void {
  call.input.onExchange?.({
    source: recorded ? 'recorded' : 'live',
    key: recorded?.key ?? call.request.key,
    latencyMs,
    ...(recorded ? { file: recorded.file } : {}),
    ...(reply === undefined ? {} : { reply }),
  })
}

// Record a live reply (a stream's events or a whole body) and tell the caller how it ended.
async function recordAndFinish(
  call: LiveCall,
  live: Response,
  reply: Omit<CassetteResponse, 'status' | 'headers'>,
  usage: () => unknown,
  latencyMs?: number | undefined,
): Promise<Recorded | undefined> {
  const { input, request, store } = call
  const written = await record(input, request, store, live, reply)
  finish(call, written, usage, latencyMs)
  return written
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
      finish(call, undefined)
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
    const written = await recordAndFinish(call, live, { sse: chunks }, usage)
    if (written?.kept?.response.sse)
      input.runtime.ids.learnStream(written.kept.response.sse, chunks)
  } catch (error) {
    finish(call, undefined)
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
    const reply = { ...body, latencyMs }
    const written = await recordAndFinish(call, live, reply, () => body.json, latencyMs)
    if (written?.kept) {
      // The store kept its entry, unchanged but for its ids: the client is served the stored
      // reply, so the ids it carries on are those the next entry was recorded with.
      aliases.learn(written.kept.response.json, body.json)
      return entryReply(written.kept)
    }
  } else {
    call.unrecorded()
    finish(call, undefined, () => body.json, latencyMs)
  }
  return responseReply(
    new Response(NULL_BODY.has(live.status) ? null : (bytes as Uint8Array<ArrayBuffer>), {
      status: live.status,
      statusText: live.statusText,
      headers: passableHeaders(live.headers),
    }),
  )
}

/**
 * Replies worth replaying: 2xx, and the deterministic client errors 400, 404 and 422. Never 401,
 * 403 (they depend on the key), 408, 429 or 5xx (they depend on the moment).
 * @internal
 */
export function isRecordableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400 || status === 404 || status === 422
}

/** The headers of a live reply, minus the ones that describe the wire encoding. @internal */
export function passableHeaders(headers: Headers): Headers {
  const out = new Headers()
  headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) out.append(name, value)
  })
  return out
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
