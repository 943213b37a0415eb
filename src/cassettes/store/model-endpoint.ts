/**
 * Which requests are model calls, the endpoint part of their key (ARCHITECTURE.md §7.3), the model
 * they name and the base URL before the endpoint. A
 * request is a model call when its path ends in an OpenAI-shaped endpoint (the keys of old
 * cassettes: the suffix alone, no query), has the shape of a provider's native API (Anthropic
 * Messages, Gemini and Vertex `models/<model>:<method>`, Bedrock runtime, the OpenAI
 * Conversations API), matches a `cassettes.match` pattern, or goes to a known model provider's
 * host. Every endpoint but the OpenAI-shaped ones is keyed with the model it names in its path and
 * with its query (secret-named parameters such as Gemini's `key` left out): `gemini-2.5-pro` and
 * `gemini-2.5-flash` are two keys, and so are a plain and an `?alt=sse` stream.
 */

/** Path suffixes of the model calls recorded by default, longest first. @internal */
export const BUILT_IN_ENDPOINTS: readonly string[] = [
  'chat/completions',
  'completions',
  'responses',
  'embeddings',
  'api/chat',
]

/** A model call's endpoint, as keyed and stored. @internal */
export interface ModelEndpoint {
  /** The endpoint part of the key, stored as the entry's `request.endpoint`. */
  endpoint: string
  /** Whether the request's query (without secret-named parameters) is part of the key. */
  queryInKey: boolean
  /** What made it a model call: a built-in endpoint, a `cassettes.match` pattern, or its host. */
  by: 'built-in' | 'pattern' | 'host'
  /** The pattern that matched, when one did (a built-in endpoint may be matched by one too). */
  pattern?: string | RegExp | undefined
}

/**
 * Hosts of model providers whose every request is a model call, recorded and replayed like one
 * (in replay mode a miss, never a network call). An entry matches the host itself and its
 * subdomains; `*` stands for part of one label. Extended with `cassettes.providerHosts`.
 * @internal
 */
export const PROVIDER_HOSTS: readonly string[] = [
  'api.openai.com',
  'openai.azure.com',
  'cognitiveservices.azure.com',
  'services.ai.azure.com',
  'api.anthropic.com',
  'generativelanguage.googleapis.com',
  'aiplatform.googleapis.com',
  '*-aiplatform.googleapis.com',
  'api.mistral.ai',
  'api.cohere.com',
  'api.cohere.ai',
  'api.groq.com',
  'api.together.xyz',
  'api.together.ai',
  'api.fireworks.ai',
  'openrouter.ai',
  'api.deepseek.com',
  'api.x.ai',
  'bedrock-runtime.*.amazonaws.com',
  'bedrock-runtime-fips.*.amazonaws.com',
  // The Vercel AI Gateway: the AI SDK's provider for a model named by a plain string.
  'ai-gateway.vercel.sh',
]

/**
 * Hosts of tracing services, whose every request is telemetry: LangSmith, in every region.
 * @internal
 */
export const TELEMETRY_HOSTS: readonly string[] = ['smith.langchain.com']

// Telemetry by its path, on any host: the Agents SDK's trace ingest, OpenTelemetry's OTLP/HTTP
// exporters (`/v1/traces`, `/v1/metrics`, `/v1/logs`).
const TELEMETRY_PATH = /(?:^|\/)v1\/(?:traces(?:\/ingest)?|metrics|logs)$/

/**
 * Whether a request is a tracing or telemetry export (ARCHITECTURE.md §7.1): never a model call,
 * whatever its host, and in replay mode refused.
 * @internal
 */
export function isTelemetry(url: URL, method = 'POST'): boolean {
  if (isHostIn(url.hostname, TELEMETRY_HOSTS)) return true
  return method.toUpperCase() === 'POST' && TELEMETRY_PATH.test(trimmedPath(url.pathname))
}

/** Headers as a request carries them; only `get` is read. @internal */
export interface HeaderReader {
  get(name: string): string | null
}

// The AI Gateway (`@ai-sdk/gateway`): `POST <base>/language-model` (and `embedding-model`,
// `image-model`...), the model in a header, the stream in another; the base is `/v3/ai` or `/v1/ai`.
const GATEWAY_SHAPE = /(?:^|\/)v\d+\/ai\/([a-z]+-model)$/

// Native APIs, by the shape of their path: [pattern, endpoint built from the match]. The endpoint
// starts where the provider's API does, so a proxy's prefix or a Vertex project is not keyed.
const NATIVE_SHAPES: readonly [RegExp, (found: RegExpExecArray) => string][] = [
  // Anthropic Messages (also on Vertex/Bedrock proxies that keep the path), and its token count.
  [/(?:^|\/)(v1\/messages(?:\/count_tokens)?)$/, (found) => found[1] as string],
  // Gemini (`/v1beta/models/gemini-2.5-pro:generateContent`) and Vertex
  // (`/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-pro:streamGenerateContent`).
  [/(?:^|\/)(models\/[^/:]+:[A-Za-z]+)$/, (found) => found[1] as string],
  // Bedrock runtime: `/model/<id>/converse`, `converse-stream`, `invoke`, `invoke-with-response-stream`.
  [
    /(?:^|\/)(model\/[^/]+\/(?:converse|converse-stream|invoke|invoke-with-response-stream))$/,
    (found) => found[1] as string,
  ],
  // The OpenAI Conversations API, and the Responses API's calls on one response: after `v1/`,
  // so that an app's own `/api/conversations` is not taken for a model call.
  [
    /(?:^|\/)v1\/(conversations(?:\/[^/]+(?:\/items(?:\/[^/]+)?)?)?)$/,
    (found) => found[1] as string,
  ],
  [/(?:^|\/)v1\/(responses\/[^/]+(?:\/input_items|\/cancel)?)$/, (found) => found[1] as string],
]

/**
 * The endpoint of a model call to `url`, or `undefined` for a request that is not one.
 * `patterns` are `cassettes.match` (a string matches the end of the path after a `/` or a `:`,
 * a RegExp anywhere in it); `hosts` are added to {@link PROVIDER_HOSTS}. A pattern's endpoint
 * starts with the request's host name (no port: a loopback server's port changes every run), so
 * the same path on two hosts is two keys, unless `matchAnyHost` (`cassettes.matchAnyHost`).
 * @internal
 */
export function modelEndpoint(
  url: URL,
  patterns: readonly (string | RegExp)[] = [],
  hosts: readonly string[] = [],
  matchAnyHost = false,
  headers?: HeaderReader | undefined,
): ModelEndpoint | undefined {
  // A trace is no model call, even on a provider's host (the Agents SDK's): recording it would
  // store ids and times that change every run, and replaying it would hide that it went out.
  if (isTelemetry(url)) return undefined
  const path = trimmedPath(url.pathname)
  const pattern = matchingPattern(path, patterns)
  // A built-in endpoint keeps its key; a pattern that names it too (`':generateContent'`, from
  // before Gemini was built in) is still noted as matched, or the summary would call it unused.
  const builtIn = (endpoint: string, queryInKey: boolean): ModelEndpoint =>
    pattern === undefined
      ? { endpoint, queryInKey, by: 'built-in' }
      : { endpoint, queryInKey, by: 'built-in', pattern }
  for (const suffix of BUILT_IN_ENDPOINTS) {
    if (endsAfter(path, suffix, '/')) return builtIn(suffix, false)
  }
  for (const [shape, endpoint] of NATIVE_SHAPES) {
    const found = shape.exec(path)
    if (found) return builtIn(endpoint(found), true)
  }
  const gateway = GATEWAY_SHAPE.exec(path)
  if (gateway) return builtIn(gatewayEndpoint(gateway[1] as string, headers), false)
  // Below the origin: the path holds what the provider keys its reply by (often the model).
  const below = path.replace(/^\/+/, '') || '/'
  if (pattern !== undefined) {
    const host = url.hostname.toLowerCase().replace(/\.$/, '')
    const endpoint = matchAnyHost ? below : `${host}/${below === '/' ? '' : below}`
    return { endpoint, queryInKey: true, by: 'pattern', pattern }
  }
  if (isProviderHost(url.hostname, hosts)) return { endpoint: below, queryInKey: true, by: 'host' }
  return undefined
}

/**
 * The key's endpoint of an AI Gateway call: `ai/language-model/openai/gpt-4o`, `/stream` added
 * for a stream (the body of a stream and of a plain call are the same; only the reply differs).
 * Without the headers (a predicate that sees the URL alone) it is the kind of model alone.
 */
function gatewayEndpoint(kind: string, headers: HeaderReader | undefined): string {
  const model = headers?.get(`ai-${kind}-id`)
  if (!model) return `ai/${kind}`
  const streaming = headers?.get(`ai-${kind}-streaming`) === 'true'
  return `ai/${kind}/${model}${streaming ? '/stream' : ''}`
}

/** The first of `patterns` that matches `pathname`, if any. @internal */
export function matchingPattern(
  pathname: string,
  patterns: readonly (string | RegExp)[],
): string | RegExp | undefined {
  const path = trimmedPath(pathname)
  for (const pattern of patterns) {
    if (typeof pattern === 'string') {
      // `':generateContent'` ends the last segment; `'/v1/messages'` is whole segments.
      const suffix = pattern.replace(/^\/+|\/+$/g, '')
      if (!suffix) continue
      if (suffix.startsWith(':') ? path.endsWith(suffix) : endsAfter(path, suffix, '/:')) {
        return pattern
      }
    } else {
      pattern.lastIndex = 0
      if (pattern.test(path)) return pattern
    }
  }
  return undefined
}

/** Whether `hostname` is a known model provider's (or one of `extra`). @internal */
export function isProviderHost(hostname: string, extra: readonly string[] = []): boolean {
  return isHostIn(hostname, PROVIDER_HOSTS) || isHostIn(hostname, extra)
}

/**
 * Whether `hostname` is one of `entries` or a subdomain of one (`*` stands for part of a label).
 * @internal
 */
export function isHostIn(hostname: string, entries: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  return entries.some((entry) => hostMatches(host, entry.toLowerCase().replace(/\.$/, '')))
}

function hostMatches(host: string, entry: string): boolean {
  const bare = entry.replace(/^\*?\./, '')
  if (!bare.includes('*')) return host === bare || host.endsWith(`.${bare}`)
  const source = bare
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]*')
  return new RegExp(`(^|\\.)${source}$`).test(host)
}

function trimmedPath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
}

/** `path` ends with `suffix`, which starts it or follows one of `separators`. */
function endsAfter(path: string, suffix: string, separators: string): boolean {
  if (!path.endsWith(suffix)) return false
  const before = path.length - suffix.length - 1
  return before < 0 || separators.includes(path[before] as string)
}

/**
 * The model a request names: the body's `model` (the body parsed, or its JSON text), else the one
 * in its path (an Azure deployment, Gemini's and Vertex's `models/<model>:<method>`, Bedrock's
 * `model/<id>/`).
 * @internal
 */
export function requestModel(body: unknown, pathname?: string): string | undefined {
  if (typeof body === 'string') return requestModel(jsonOf(body), pathname)
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

// A body's text as JSON when it reads as an object: the model of a text body that is not JSON is
// only ever in its path.
function jsonOf(text: string): object | undefined {
  if (text.trimStart()[0] !== '{') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Where a request to `endpoint` goes: the URL before the endpoint (`http://localhost:8080/v1`),
 * without user, password, query or fragment, so that no secret a URL carries is kept.
 * @internal
 */
export function baseURLOf(url: URL, endpoint: string): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const path = url.pathname.replace(/\/+$/, '')
  const cut = path.endsWith(`/${endpoint}`) ? path.slice(0, -endpoint.length - 1) : ''
  return `${url.origin}${cut}`
}
