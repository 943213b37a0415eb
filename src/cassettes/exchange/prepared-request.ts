/**
 * The exchange's first phase: what a caller hands over (`ExchangeInput`), and the request made
 * ready for the store: its body parsed, redacted, stripped of non-semantic fields and passed
 * through the user's `redact` hook, then keyed (ARCHITECTURE.md §7.3). The same steps run at
 * record and at replay time, so a key never depends on a secret or on which machine recorded it.
 */

import type { CassetteMode, ResolvedConfig } from '../../config/resolve-config'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import type { TestIdentity } from '../../records/records'
import { currentCallContext, type ExchangeEvent } from '../../runtime/call-context'
import type { Runtime } from '../../runtime/runtime'
import { isSecretQueryName, redactRequest, type SecretSet } from '../redaction/redaction'
import { canonicalJson, sha256Hex } from '../store/canonical-json'
import { baseURLOf, requestModel } from '../store/model-endpoint'

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

/** What a request is prepared from. @internal */
export interface RequestInput {
  method: string
  endpoint: string
  /** The raw body text, or an already parsed value (`cached()` passes its `JudgeRequest`). */
  body: string | unknown
  url?: URL | undefined
  /**
   * Key the query of a POST too (a provider's native API, a `match` pattern, a provider host),
   * without its secret-named parameters. Default: only the query of a request that is not a POST.
   */
  queryInKey?: boolean | undefined
  headers?: Headers | [string, string][] | undefined
  redact?: RedactHook | undefined
  /** The user's `cassettes.normalize`, run on every string of the body after redaction. */
  normalize?: ((text: string) => string) | undefined
  /** The `describeEval` trial the request belongs to; read from the call context when unset. */
  trial?: number | undefined
}

/** @internal */
export interface PreparedRequest {
  method: string
  endpoint: string
  /** The body as keyed and stored. */
  body: unknown
  /** The redacted query of a request that is not a POST (part of its key); unset otherwise. */
  query: RequestQuery | undefined
  key: string
  /** The `describeEval` trial, part of the key and stored with the entry; unset outside trials. */
  trial: number | undefined
  /** The model the request names: the body's `model`, else the one in its path. */
  model: string | undefined
  /** Where the request goes, as {@link baseURLOf} gives it; unset for a call that is no HTTP request. */
  baseURL: string | undefined
  /** The secrets of this exchange, for redacting the reply and the rescan. */
  secrets: SecretSet
  /** The n-th identical request of its test (from 2), part of the key; unset for the first. */
  occurrence: number | undefined
  /** A digest of the body before the `redact` hook changed it, part of the key; unset when it did not. */
  hook: string | undefined
  input: RequestInput
}

/** The user's `cassettes.redact` hook. @internal */
export type RedactHook = (entry: any) => any

/**
 * Prepare a request: redacted of the secrets known now (the environment is read afresh, so a
 * secret set a moment ago is never keyed in), normalised, hooked and keyed. @internal
 */
export function prepareRequest(input: RequestInput): PreparedRequest {
  const trial = input.trial ?? currentCallContext().trial
  // Pairs (the judge's) are told apart first: the first read of the global `Headers` loads
  // Node's fetch.
  const headers =
    input.headers === undefined || Array.isArray(input.headers)
      ? (input.headers ?? [])
      : headerPairs(input.headers)
  const parsed = typeof input.body === 'string' ? parseBody(input.body) : input.body
  const rawQuery = keyQuery(input.method, input.url, input.queryInKey)
  const redacted = redactRequest(input.url, headers, parsed, rawQuery)
  const { body, hook } = keyedBody(input, redacted.body)
  const query = redacted.query as RequestQuery | undefined
  return {
    method: input.method,
    endpoint: input.endpoint,
    body,
    query,
    key: computeKey(input.endpoint, body, trial, input.method, query, { hook }),
    trial,
    model: requestModel(body, input.url?.pathname),
    baseURL: input.url && baseURLOf(input.url, input.endpoint),
    secrets: redacted.secrets,
    occurrence: undefined,
    hook,
    input: trial === input.trial ? input : { ...input, trial },
  }
}

/**
 * The redacted body as it is keyed: without its non-semantic fields, normalised, through the
 * user's hook, and a digest of what the hook changed (unset when it changed nothing).
 */
function keyedBody(
  input: RequestInput,
  redacted: unknown,
): { body: unknown; hook: string | undefined } {
  let body = keyBody(redacted, input.endpoint)
  // Two tests' requests that normalise alike share a key, never a reply: each test is served
  // only the entries it recorded itself (ARCHITECTURE.md §7.2), so no merge check is needed.
  if (input.normalize) body = normalizeStrings(body, input.normalize)
  if (!input.redact) return { body, hook: undefined }
  const before = canonicalJson(body)
  const hooked = keyBody(
    hookRequest(input.redact, input.method, input.endpoint, body),
    input.endpoint,
  )
  // A hook that masks what tells two requests apart (a customer's name) must not make them
  // one key, which would serve one's reply to the other: the key keeps a digest of what the
  // hook replaced, as the built-in placeholders keep a digest of each secret.
  const hook = canonicalJson(hooked) !== before ? sha256Hex(before).slice(0, 16) : undefined
  return { body: hooked, hook }
}

/**
 * The same request as the n-th identical one of its test (ARCHITECTURE.md §7.10): keyed with its
 * occurrence from the second on, so that each is answered by the reply recorded for it.
 * @internal
 */
export function atOccurrence(prepared: PreparedRequest, occurrence: number): PreparedRequest {
  const at = occurrence < 2 ? undefined : occurrence
  if (at === prepared.occurrence) return prepared
  const { endpoint, body, trial, method, query, hook } = prepared
  return {
    ...prepared,
    occurrence: at,
    key: computeKey(endpoint, body, trial, method, query, { occurrence: at, hook }),
  }
}

/** Run the user's hook on the request alone (`response` undefined); returns the body it leaves. @internal */
export function hookRequest(
  hook: RedactHook,
  method: string,
  endpoint: string,
  body: unknown,
): unknown {
  const draft = {
    v: 1,
    request: { method, endpoint, body: structuredClone(body) },
    response: undefined,
  }
  return runHook(hook, draft).request?.body
}

/** Run the user's hook, turning a throw into a usage error that says how it is called. @internal */
export function runHook<T>(hook: RedactHook, entry: T): T {
  let result: unknown
  try {
    result = hook(entry)
  } catch (error) {
    throw new UsageError(
      messages.redactHookFailed(error instanceof Error ? error.message : String(error)),
      { cause: error },
    )
  }
  if (result === undefined || result === null) return entry
  const request = (result as { request?: unknown }).request
  // Anything but an entry (a string, a promise, an entry without its request) would key or write
  // garbage: say so now, instead of sending the request live under a key nothing can replay.
  if (
    typeof result !== 'object' ||
    typeof (result as { then?: unknown }).then === 'function' ||
    request === null ||
    typeof request !== 'object'
  ) {
    throw new UsageError(messages.redactHookResult(result))
  }
  return result as T
}

/** The name/value pairs of `Headers`. */
function headerPairs(headers: Headers): [string, string][] {
  const pairs: [string, string][] = []
  headers.forEach((value, name) => {
    pairs.push([name, value])
  })
  return pairs
}

// A body's text as JSON when it reads as JSON, else the text itself.
function parseBody(text: string): unknown {
  if (!text) return ''
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Every string of a body (object keys aside) through the user's `cassettes.normalize`. */
function normalizeStrings(value: unknown, normalize: (text: string) => string): unknown {
  if (typeof value === 'string') {
    let out: unknown
    try {
      out = normalize(value)
    } catch (error) {
      throw new UsageError(
        messages.normalizeHookFailed(error instanceof Error ? error.message : String(error)),
        { cause: error },
      )
    }
    if (typeof out !== 'string') {
      throw new UsageError(messages.notFunctionResult('cassettes.normalize', out))
    }
    return out
  }
  if (Array.isArray(value)) return value.map((item) => normalizeStrings(item, normalize))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) out[name] = normalizeStrings(item, normalize)
  return out
}

/**
 * The cassette key: sha256 over the canonical JSON of `{ v, endpoint, body }`. `endpoint` is the
 * matched path suffix, so OpenAI, a proxy, OpenRouter (`/api/v1`) and Azure
 * (`/openai/deployments/<d>?api-version=`) share one cassette; `body` is the redacted request
 * body without the fields that do not change the reply.
 */

/** Version of the key derivation; bumping it re-keys every cassette. @internal */
export const KEY_VERSION = 1

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
