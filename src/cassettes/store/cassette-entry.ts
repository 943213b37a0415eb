import { sortKeysDeep } from './canonical-json'
import {
  decodeValue,
  encodeBody,
  encodeValue,
  type SchemaLoader,
  type SharedSchema,
} from './entry-encoding'
import { streamedText } from './reply-formats'

/**
 * One recorded exchange, one file (ARCHITECTURE 7.2). Pretty-printed with a fixed order at the top
 * and sorted keys below it, so a re-record of the same reply is no diff and a review reads
 * top-down. Format 2 (written today) puts the parsed verdicts of a judge entry first, the joined
 * text of a stream beside its events, long strings as lines and the reply schema in a shared
 * file; format 1 (one-line strings, the schema in every entry) is still read.
 */

/** The format version written. @internal */
export const ENTRY_FORMAT = 2

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
  /**
   * Milliseconds from the request to the whole reply, as recorded (a stream's is its last event's
   * `t`). What a budget's latency reads in replay; never part of the key or of what makes two
   * entries the same exchange.
   */
  latencyMs?: number | undefined
}

/** One verdict of a judge entry, parsed from its reply for the reader (never read back). */
export interface EntryVerdict {
  /** The criterion id in the prompt (`c1`). */
  id: string
  /** The criterion's text, as the prompt lists it. */
  criterion?: string | undefined
  satisfied?: unknown
  score?: unknown
  reasoning?: unknown
}

/**
 * A cassette entry, decoded: every value as it was recorded. Stored in
 * `<dir>/<test file>/<test-name>.<key prefix>.json` (format 2) or `<dir>/<k0k1>/<key>.json`
 * (format 1).
 */
export interface CassetteEntry {
  /** The format version of the file it was read from (a new entry is written as format 2). */
  v: 1 | 2
  key: string
  /** Version of the judge's prompt template, for judge calls. */
  promptVersion?: string | undefined
  /** ISO time of the recording. */
  recordedAt: string
  /** `<test file> > <test name>` of the test that recorded it, when known. */
  recordedBy?: string | undefined
  /**
   * Where it was recorded: the URL before the endpoint (`http://localhost:8080/v1`), without
   * user, password or query. For a reader and for a miss's record command; never part of the key
   * or of what makes two entries the same exchange.
   */
  baseURL?: string | undefined
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
    /** The n-th identical request of its test (from 2); part of the key. */
    occurrence?: number | undefined
    /** A digest of the body before the `cassettes.redact` hook changed it; part of the key. */
    hook?: string | undefined
  }
  response: CassetteResponse
}

const BODY_FIELDS = ['json', 'text', 'base64', 'sse'] as const

/** The file text of an entry, and the reply schema it references (stored once, apart). @internal */
export function serializeEntry(entry: CassetteEntry): { text: string; schema?: SharedSchema } {
  const { body, schema } = encodeBody(entry.request.body)
  const response: Record<string, unknown> = {
    status: entry.response.status,
    headers: sortKeysDeep(entry.response.headers),
  }
  if (entry.response.latencyMs !== undefined) response.latencyMs = entry.response.latencyMs
  if (entry.response.sse !== undefined) {
    const text = streamedText(entry.response.sse)
    if (text !== undefined) response.streamedText = encodeValue(text)
  }
  for (const field of BODY_FIELDS) {
    const value = entry.response[field]
    if (value === undefined) continue
    response[field] =
      field === 'json' || field === 'text' ? sortKeysDeep(encodeValue(value)) : value
  }
  const verdicts = judgeVerdicts(entry)
  const ordered = {
    v: ENTRY_FORMAT,
    verdicts,
    recordedBy: entry.recordedBy,
    key: entry.key,
    promptVersion: entry.promptVersion,
    recordedAt: entry.recordedAt,
    baseURL: entry.baseURL,
    request: {
      method: entry.request.method,
      endpoint: entry.request.endpoint,
      query: entry.request.query && sortKeysDeep(entry.request.query),
      trial: entry.request.trial,
      occurrence: entry.request.occurrence,
      hook: entry.request.hook,
      body: sortKeysDeep(body),
    },
    response,
  }
  return { text: `${JSON.stringify(ordered, null, 2)}\n`, ...(schema ? { schema } : {}) }
}

/**
 * The verdicts of a judge entry, parsed from its reply with each criterion's text from its
 * prompt; `undefined` for any other entry or a reply that holds no verdicts.
 * @internal
 */
export function judgeVerdicts(entry: CassetteEntry): EntryVerdict[] | undefined {
  if (entry.promptVersion === undefined) return undefined
  const json = entry.response.json as any
  const content = json?.choices?.[0]?.message?.content ?? json?.text ?? json?.output_text
  if (typeof content !== 'string') return undefined
  let parsed: any
  try {
    parsed = JSON.parse(content)
  } catch {
    return undefined
  }
  const criteria = parsed?.criteria
  if (criteria === null || typeof criteria !== 'object' || Array.isArray(criteria)) return undefined
  const texts = criterionTexts(entry.request.body)
  const verdicts: EntryVerdict[] = []
  for (const [id, verdict] of Object.entries(criteria as Record<string, any>)) {
    verdicts.push({
      id,
      criterion: texts.get(id),
      satisfied: verdict?.satisfied,
      score: verdict?.score,
      reasoning: verdict?.reasoning,
    })
  }
  return verdicts
}

// The rubric lists its criteria one a line, `c1. [required] Answers the question`.
function criterionTexts(body: unknown): Map<string, string> {
  const texts = new Map<string, string>()
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (!value.includes('c1. ')) return
      for (const match of value.matchAll(/^(c\d+)\. (?:\[[^\]\n]*\] )?(.*)$/gm)) {
        if (!texts.has(match[1] as string)) texts.set(match[1] as string, match[2] as string)
      }
    } else if (Array.isArray(value)) {
      value.forEach(visit)
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(visit)
    }
  }
  visit(body)
  return texts
}

/**
 * Parse and check a file's text. Returns the entry, or a sentence saying what is wrong (the
 * caller wraps it in `RUBRICATE_CASSETTE_CORRUPT` naming the file).
 * @internal
 */
export function parseEntry(
  text: string,
  expectedKey?: string,
  loadSchema: SchemaLoader = noSchemas,
  options: ParseOptions = {},
): CassetteEntry | string {
  let data: any
  try {
    // An editor on Windows may save the file with a UTF-8 byte order mark, which JSON.parse refuses.
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`
  }
  // In this order, each check only once the one before it holds.
  const problem =
    headProblem(data, expectedKey) ??
    requestProblem(data.request) ??
    (data.v === 2
      ? decodeBodies(data, loadSchema, options.lazyRequestBody === true) || undefined
      : undefined) ??
    requestNumbersProblem(data.request) ??
    responseProblem(data.response)
  return problem ?? (data as CassetteEntry)
}

function headProblem(data: any, expectedKey: string | undefined): string | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return 'it is not a JSON object'
  if (data.v !== 1 && data.v !== 2)
    return `its format version "v" is ${JSON.stringify(data.v)}, not 1 or 2`
  if (typeof data.key !== 'string' || !/^[0-9a-f]{64}$/.test(data.key))
    return 'its "key" is not a sha256 hex string'
  if (expectedKey !== undefined && data.key !== expectedKey) {
    return `its "key" is ${data.key}, but the file is named for ${expectedKey}`
  }
  if (typeof data.recordedAt !== 'string') return 'it has no "recordedAt" time'
  if (data.baseURL !== undefined && typeof data.baseURL !== 'string')
    return 'its "baseURL" is not a string'
  return undefined
}

function requestProblem(request: any): string | undefined {
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
  return undefined
}

function requestNumbersProblem(request: any): string | undefined {
  if (request.trial !== undefined && !(Number.isInteger(request.trial) && request.trial >= 1))
    return 'its "request.trial" is not a whole number from 1'
  if (
    request.occurrence !== undefined &&
    !(Number.isInteger(request.occurrence) && request.occurrence >= 2)
  )
    return 'its "request.occurrence" is not a whole number from 2'
  if (
    request.hook !== undefined &&
    !(typeof request.hook === 'string' && /^[0-9a-f]{16}$/.test(request.hook))
  )
    return 'its "request.hook" is not 16 hex digits'
  return undefined
}

function responseProblem(response: any): string | undefined {
  if (response === null || typeof response !== 'object') return 'it has no "response" object'
  if (!Number.isInteger(response.status)) return 'its "response.status" is not an integer'
  if (response.headers === null || typeof response.headers !== 'object')
    return 'its "response.headers" is not an object'
  const bodies = BODY_FIELDS.filter((field) => response[field] !== undefined)
  if (bodies.length !== 1)
    return 'its "response" must hold exactly one of "json", "text", "base64", "sse"'
  if (
    response.latencyMs !== undefined &&
    !(typeof response.latencyMs === 'number' && response.latencyMs >= 0)
  )
    return 'its "response.latencyMs" is not a number of milliseconds'
  if (response.text !== undefined && typeof response.text !== 'string')
    return 'its "response.text" is not a string'
  if (response.base64 !== undefined && typeof response.base64 !== 'string')
    return 'its "response.base64" is not a string'
  return response.sse === undefined ? undefined : sseProblem(response.sse)
}

function sseProblem(sse: unknown): string | undefined {
  if (!Array.isArray(sse)) return 'its "response.sse" is not a list'
  for (const chunk of sse) {
    if (
      chunk === null ||
      typeof chunk !== 'object' ||
      typeof chunk.chunk !== 'string' ||
      typeof chunk.t !== 'number'
    ) {
      return 'its "response.sse" holds an item that is not { t, chunk }'
    }
  }
  return undefined
}

// `request.body` as a getter that decodes the recorded value once, then becomes that value.
function decodeWhenRead(request: Record<string, unknown>, loadSchema: SchemaLoader): void {
  const recorded = request.body
  const settle = (value: unknown) =>
    Object.defineProperty(request, 'body', {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  Object.defineProperty(request, 'body', {
    enumerable: true,
    configurable: true,
    get() {
      let value: unknown
      try {
        value = decodeValue(recorded, loadSchema)
      } catch (error) {
        throw new Error(`its request body cannot be decoded: ${(error as Error).message}`)
      }
      settle(value)
      return value
    },
    set: settle,
  })
}

function noSchemas(hash: string): never {
  throw new Error(`the reply schema ${hash} is referenced, but no cassette folder was given`)
}

/** Options of {@link parseEntry}. @internal */
export interface ParseOptions {
  /**
   * Decode a format-2 request body only when it is first read: replay serves the response and
   * never reads it. A body that cannot be decoded then throws when read, saying why.
   */
  lazyRequestBody?: boolean | undefined
}

/** Decode a format-2 entry in place: the reader's summaries go, every value is as recorded. */
function decodeBodies(data: any, loadSchema: SchemaLoader, lazy: boolean): string | undefined {
  try {
    if (lazy) decodeWhenRead(data.request, loadSchema)
    else data.request.body = decodeValue(data.request.body, loadSchema)
    const { response } = data
    if (response && typeof response === 'object') {
      if (response.json !== undefined) response.json = decodeValue(response.json, loadSchema)
      if (response.text !== undefined) response.text = decodeValue(response.text, loadSchema)
      delete response.streamedText
    }
  } catch (error) {
    return `its values cannot be decoded: ${(error as Error).message}`
  }
  delete data.verdicts
  if (data.request.trial === undefined) delete data.request.trial
  if (data.request.occurrence === undefined) delete data.request.occurrence
  if (data.request.hook === undefined) delete data.request.hook
  return undefined
}
