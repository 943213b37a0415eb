import { hash } from 'node:crypto'
import { isSecretQueryName } from '../redaction/redaction'
import { canonicalJson } from './canonical-json'

/**
 * The cassette key (ARCHITECTURE.md §7.3): sha256 over the canonical JSON of `{ v, endpoint, body }`.
 * `endpoint` is the matched path suffix, so OpenAI, a proxy, OpenRouter (`/api/v1`) and Azure
 * (`/openai/deployments/<d>?api-version=`) share one cassette; `body` is the redacted request
 * body without the fields that do not change the reply.
 */

/** Version of the key derivation; bumping it re-keys every cassette. @internal */
export const KEY_VERSION = 1

/** Path suffixes of the model calls recorded by default, longest first. @internal */
export const BUILT_IN_ENDPOINTS: readonly string[] = [
  'chat/completions',
  'completions',
  'responses',
  'embeddings',
  'api/chat',
]

/** Request fields that never change the reply, so they are left out of the key. @internal */
export const NON_SEMANTIC_FIELDS: readonly string[] = [
  'user',
  'metadata',
  'store',
  'prompt_cache_key',
  'safety_identifier',
]

/**
 * The body as it is keyed and stored: without the non-semantic fields, and for an AI Gateway call
 * (`endpoint` `ai/...`) without the SDK's own `user-agent` in the body's `headers`, which names the
 * `ai` version: an upgrade of the SDK must not turn every gateway entry into a miss.
 * @internal
 */
export function keyBody(body: unknown, endpoint?: string | undefined): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body
  const source = body as Record<string, unknown>
  const gatewayAgent = endpoint?.startsWith('ai/') === true && hasUserAgent(source.headers)
  if (!gatewayAgent && !NON_SEMANTIC_FIELDS.some((field) => field in source)) return body
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(source)) {
    if (NON_SEMANTIC_FIELDS.includes(name)) continue
    if (name === 'headers' && gatewayAgent) {
      const { 'user-agent': _agent, ...rest } = value as Record<string, unknown>
      if (Object.keys(rest).length > 0) out[name] = rest
      continue
    }
    out[name] = value
  }
  return out
}

function hasUserAgent(headers: unknown): boolean {
  return (
    headers !== null &&
    typeof headers === 'object' &&
    !Array.isArray(headers) &&
    'user-agent' in headers
  )
}

/** The query of a request as keyed and stored: its parameters by name, a repeated one as a list. @internal */
export type RequestQuery = Record<string, string | string[]>

/**
 * The key of a request to `endpoint` with the (redacted) `body`. A `trial` (a `describeEval` row
 * run several times) is part of the key only when set, so keys without one never change. So are
 * the method of a request that is not a POST (a tool's `GET /weather?city=Paris`) and a `query`
 * ({@link keyQuery}): an OpenAI-shaped model call is a POST without one, and its keys stay as
 * they were.
 * @internal
 */
export function computeKey(
  endpoint: string,
  body: unknown,
  trial?: number | undefined,
  method = 'POST',
  query?: RequestQuery | undefined,
  sequence: KeySequence = {},
): string {
  const keyed: Record<string, unknown> = { v: KEY_VERSION, endpoint, body: keyBody(body, endpoint) }
  if (trial !== undefined) keyed.trial = trial
  if (method.toUpperCase() !== 'POST') keyed.method = method.toUpperCase()
  if (query && Object.keys(query).length > 0) keyed.query = query
  if (sequence.occurrence !== undefined) keyed.occurrence = sequence.occurrence
  if (sequence.hook !== undefined) keyed.hook = sequence.hook
  return sha256Hex(canonicalJson(keyed))
}

/**
 * What tells apart requests whose bodies key the same. Each is part of the key only when set, so
 * every key recorded before they existed stays as it was.
 * @internal
 */
export interface KeySequence {
  /** The n-th identical request of one test, from 2 (the first has none). */
  occurrence?: number | undefined
  /** A digest of the body before the `cassettes.redact` hook changed it. */
  hook?: string | undefined
}

/** The key of a stored request, as {@link computeKey} computed it when it was recorded. @internal */
export function requestKey(request: {
  endpoint: string
  body: unknown
  method: string
  trial?: number | undefined
  query?: RequestQuery | undefined
  occurrence?: number | undefined
  hook?: string | undefined
}): string {
  return computeKey(request.endpoint, request.body, request.trial, request.method, request.query, {
    occurrence: request.occurrence,
    hook: request.hook,
  })
}

/**
 * The sha256 of a text, as hex. One call, without the stream object `createHash` builds: it runs
 * for every replayed request.
 * @internal
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex')
}

/**
 * The query of a request for its key: that of a request that is not a POST (its secret-looking
 * values are redacted by the caller), and with `always` (an endpoint that is not OpenAI-shaped,
 * such as Gemini's `?alt=sse`) that of a POST too, without its secret-named parameters (Gemini's
 * `key`): whether the key travels in a header or in the query changes no key. `undefined` for an
 * OpenAI-shaped POST (Azure's `api-version` is not part of its key) and for a URL without one.
 * @internal
 */
export function keyQuery(
  method: string,
  url: URL | undefined,
  always = false,
): RequestQuery | undefined {
  if (!url || url.search.length <= 1 || (!always && method.toUpperCase() === 'POST')) {
    return undefined
  }
  const query: RequestQuery = {}
  for (const [name, value] of url.searchParams) {
    if (always && isSecretQueryName(name)) continue
    const seen = query[name]
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
  }
  // Only secret-named parameters: no query, as when the key travels in a header.
  return Object.keys(query).length > 0 ? query : undefined
}

/**
 * The model a request names: the body's `model`, else the one in its path (an Azure deployment,
 * Gemini's and Vertex's `models/<model>:<method>`, Bedrock's `model/<id>/`).
 * @internal
 */
export function requestModel(body: unknown, pathname?: string): string | undefined {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const model = (body as Record<string, unknown>).model
    if (typeof model === 'string') return model
  }
  const inPath = pathname
    ? (/\/deployments\/([^/]+)\//.exec(pathname) ??
      /\/models\/([^/:]+):[A-Za-z]+\/?$/.exec(pathname) ??
      /\/model\/([^/]+)\/[a-z-]+\/?$/.exec(pathname))
    : null
  return inPath?.[1] ? decodeURIComponent(inPath[1]) : undefined
}
