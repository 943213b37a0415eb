import { sortKeysDeep } from './canonical-json'

/**
 * One recorded exchange, one file (DESIGN 7.2). Pretty-printed with a fixed order at the top and
 * sorted keys below it, so a re-record of the same reply is no diff and a review reads top-down.
 */

/**
 * One event of a recorded stream (an SSE event, or an NDJSON line such as Ollama's): milliseconds
 * after the reply started, and its text. The entry's `content-type` says which.
 */
export interface SseChunk {
  t: number
  chunk: string
}

/** The recorded reply. Exactly one of `json`, `text`, `base64`, `sse` holds the body. */
export interface CassetteResponse {
  status: number
  /** Allow-listed response headers (`content-type`). */
  headers: Record<string, string>
  json?: unknown
  text?: string | undefined
  base64?: string | undefined
  /** A streamed reply, event by event: SSE (`text/event-stream`) or NDJSON lines. */
  sse?: SseChunk[] | undefined
}

/** A cassette entry, as stored in `__cassettes__/<k0k1>/<key>.json`. */
export interface CassetteEntry {
  v: 1
  key: string
  /** Version of the judge's prompt template, for judge calls. */
  promptVersion?: string | undefined
  /** ISO time of the recording. */
  recordedAt: string
  /** `<test file> > <test name>` of the test that recorded it, when known. */
  recordedBy?: string | undefined
  request: {
    method: string
    /** The matched endpoint suffix (`chat/completions`, ...) or `judge-model` for `cached()`. */
    endpoint: string
    /** The redacted body, without non-semantic fields: exactly what the key is computed over. */
    body: unknown
    /** The redacted query of a request that is not a POST (a tool's GET); part of the key. */
    query?: Record<string, string | string[]> | undefined
    /** The `describeEval` trial (from 1) of a row run several times; part of the key. */
    trial?: number | undefined
  }
  response: CassetteResponse
}

const BODY_FIELDS = ['json', 'text', 'base64', 'sse'] as const

/** The file text of an entry. @internal */
export function serializeEntry(entry: CassetteEntry): string {
  const response: Record<string, unknown> = {
    status: entry.response.status,
    headers: sortKeysDeep(entry.response.headers),
  }
  for (const field of BODY_FIELDS) {
    if (entry.response[field] !== undefined) response[field] = sortKeysDeep(entry.response[field])
  }
  const ordered = {
    v: entry.v,
    key: entry.key,
    promptVersion: entry.promptVersion,
    recordedAt: entry.recordedAt,
    recordedBy: entry.recordedBy,
    request: {
      method: entry.request.method,
      endpoint: entry.request.endpoint,
      body: sortKeysDeep(entry.request.body),
      query: entry.request.query && sortKeysDeep(entry.request.query),
      trial: entry.request.trial,
    },
    response,
  }
  return `${JSON.stringify(ordered, null, 2)}\n`
}

/**
 * Parse and check a file's text. Returns the entry, or a sentence saying what is wrong (the
 * caller wraps it in `RUBRICATE_CASSETTE_CORRUPT` naming the file).
 * @internal
 */
export function parseEntry(text: string, expectedKey?: string): CassetteEntry | string {
  let data: any
  try {
    // An editor on Windows may save the file with a UTF-8 byte order mark, which JSON.parse refuses.
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return 'it is not a JSON object'
  if (data.v !== 1) return `its format version "v" is ${JSON.stringify(data.v)}, not 1`
  if (typeof data.key !== 'string' || !/^[0-9a-f]{64}$/.test(data.key))
    return 'its "key" is not a sha256 hex string'
  if (expectedKey !== undefined && data.key !== expectedKey) {
    return `its "key" is ${data.key}, but the file is named for ${expectedKey}`
  }
  if (typeof data.recordedAt !== 'string') return 'it has no "recordedAt" time'
  const { request, response } = data
  if (request === null || typeof request !== 'object') return 'it has no "request" object'
  if (typeof request.endpoint !== 'string' || typeof request.method !== 'string') {
    return 'its "request" lacks "method" or "endpoint"'
  }
  if (!('body' in request)) return 'its "request" has no "body"'
  if (
    request.query !== undefined &&
    (request.query === null || typeof request.query !== 'object' || Array.isArray(request.query))
  )
    return 'its "request.query" is not an object'
  if (request.trial !== undefined && !(Number.isInteger(request.trial) && request.trial >= 1))
    return 'its "request.trial" is not a whole number from 1'
  if (response === null || typeof response !== 'object') return 'it has no "response" object'
  if (!Number.isInteger(response.status)) return 'its "response.status" is not an integer'
  if (response.headers === null || typeof response.headers !== 'object')
    return 'its "response.headers" is not an object'
  const bodies = BODY_FIELDS.filter((field) => response[field] !== undefined)
  if (bodies.length !== 1)
    return 'its "response" must hold exactly one of "json", "text", "base64", "sse"'
  if (response.text !== undefined && typeof response.text !== 'string')
    return 'its "response.text" is not a string'
  if (response.base64 !== undefined && typeof response.base64 !== 'string')
    return 'its "response.base64" is not a string'
  if (response.sse !== undefined) {
    if (!Array.isArray(response.sse)) return 'its "response.sse" is not a list'
    for (const chunk of response.sse) {
      if (
        chunk === null ||
        typeof chunk !== 'object' ||
        typeof chunk.chunk !== 'string' ||
        typeof chunk.t !== 'number'
      ) {
        return 'its "response.sse" holds an item that is not { t, chunk }'
      }
    }
  }
  return data as CassetteEntry
}
