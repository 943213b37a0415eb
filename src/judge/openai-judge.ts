/** One request to an OpenAI-compatible endpoint, as the judge call builds it. @internal */
import type OpenAI from 'openai'
import { isRubricateError, JudgeRequestError, UsageError } from '../errors'
import { messages } from '../messages'
import type { JsonSchema, JudgeReply, OpenAICompatibleJudge } from '../records/records'
import {
  type ExchangeReply,
  judgeExchange,
  judgeMayGoLive,
  NO_API_KEY,
  redactUrl,
  responseReply,
} from './cassette-bridge'
import {
  bodyPreview,
  callAborted,
  completionReply,
  deadlinePassed,
  type FailedCompletion,
  sdkFailureRule,
  wholeBody,
} from './endpoint-replies'
import { type JudgeCallScope, judgeCallScope } from './judge-call-scope'
import { type RetryTransport, withRetries } from './retries'

export interface EndpointRequest {
  system?: string | undefined
  prompt: string
  /** The previous reply and what was wrong with it: sent as two more turns. */
  repair?: { reply: string; instruction: string } | undefined
  /** Sent as `response_format` (json_schema mode only). */
  responseFormat?: { name: string; schema: JsonSchema; strict: boolean } | undefined
  /** A rejection of `responseFormat` throws {@link StructuredOutputRejected} (mode `'auto'`). */
  fallbackOnRejection?: boolean | undefined
  /** The provider's unset key variable: a call that must go live fails naming it. */
  missingKey?: string | undefined
  seed?: number | undefined
  temperature?: number | undefined
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1'

/** Retries of a failed judge request when the judge object sets no `maxRetries`. @internal */
export const DEFAULT_MAX_RETRIES = 2
/**
 * How long one judge request may take when the judge object sets no `timeoutMs`, in
 * milliseconds: the SDK's own default (10 minutes, three times over with its retries) would let
 * a hung judge hold a run with `--testTimeout=0` for half an hour.
 * @internal
 */
export const DEFAULT_TIMEOUT_MS = 60_000

/**
 * How long one judge call may take in all, retries and waits included, when the judge object
 * sets no `deadlineMs`, in milliseconds.
 * @internal
 */
export const DEFAULT_DEADLINE_MS = 120_000
// The SDK refuses to construct without a key. A placeholder lets replayed calls (which never reach
// the provider) work with no key; a live call to a provider is refused before it is sent, and one
// to another server that answers 401 is explained.
const NO_KEY = NO_API_KEY

/**
 * One completion's requests, as its client's `fetch` sees them. What the exchange decided without
 * the provider is not the SDK's to read: an error of rubricate's own transport (a cassette miss, a
 * limit) must not be retried by the SDK as a connection error, and a cassette hit is read by the
 * one reader of hits (`readCompletion`). The fetch parks either here and answers with a
 * non-retryable response; the live route then returns the hit, or rethrows the error as it was.
 */
interface RequestScope {
  /** The judge call the requests belong to. */
  call: JudgeCallScope
  /** HTTP requests attempted (connection failures included). */
  requests: number
  onRequest: () => void
  error?: unknown
  /** The completion of this attempt served from a cassette in the live route, read as a replay is. */
  hit?: Promise<unknown> | undefined
}

// The non-retryable answer the SDK gets for what the exchange decided without the provider.
function stopReply(): ExchangeReply {
  return responseReply(
    new Response('{"error":{"message":"rubricate transport error"}}', {
      status: 400,
      headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
    }),
  )
}

// One request of the judge, counted, with a rubricate error parked and answered as above. The SDK
// takes it as a `Response` (`fetchFor`); `replayCompletion` reads the reply as it is, so a replayed
// one builds no `Response` (docs/guide/benchmarks.md).
async function ownExchange(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  scope: RequestScope,
): Promise<ExchangeReply> {
  scope.requests++
  scope.onRequest()
  try {
    return await judgeExchange(input, init, scope.call)
  } catch (error) {
    if (!isRubricateError(error)) throw error
    scope.error = error
    return stopReply()
  }
}

// The live route's fetch: a live reply as a whole `Response` for the SDK; a cassette hit parked
// for `readCompletion`, as the replay route reads it.
function fetchFor(scope: RequestScope): typeof fetch {
  return async (input, init) => {
    const reply = await ownExchange(input, init, scope)
    if (!reply.recorded) return wholeBody(reply.response())
    scope.hit = readCompletion(reply)
    // Handled where it is awaited (`sendLiveCompletion`); not unhandled in between.
    scope.hit.catch(() => {})
    return stopReply().response()
  }
}

/**
 * Send one chat completion to an OpenAI-compatible endpoint through the official SDK, retry what
 * is worth retrying (bounded by `maxRetries`), and turn every failure into a rubricate error that
 * says what to do. `onRequest` is told about every HTTP request attempted, retries and failed
 * connections included.
 *
 * rubricate retries (`withRetries`, retries.ts), not the SDK (built with `maxRetries: 0`): the
 * SDK sleeps between retries on the global `setTimeout`, which `vi.useFakeTimers()` replaces, so
 * under fake timers a 503 ended in "Test timed out" with nothing said about the judge. The retry
 * rule is the SDK's (`x-should-retry`, 408, 409, 429, 5xx, connection errors, timeouts; its
 * backoff), the sleep is on the real clock, and each request has a timeout of its own on the real
 * clock as well.
 * @internal
 */
export async function completeWithEndpoint(
  endpoint: OpenAICompatibleJudge,
  request: EndpointRequest,
  signal: AbortSignal,
  onRequest: () => void,
  call: JudgeCallScope = judgeCallScope(),
): Promise<JudgeReply> {
  return sendCompletion(
    endpoint,
    request,
    prepareCompletion(endpoint, request),
    signal,
    onRequest,
    call,
  )
}

/** A completion request checked and built, as the SDK will send it. @internal */
export interface PreparedCompletion {
  baseURL: string
  apiKey: string | undefined
  params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming
}

/**
 * The first part of {@link completeWithEndpoint}: check the base URL and build the request's
 * parameters. The SDK alone builds the HTTP request from them (URL, headers, body); the
 * cassettes see it in the SDK's `fetch`, so there is one request, built once.
 * Throws `RUBRICATE_USAGE` for a base URL that cannot be used.
 * @internal
 */
export function prepareCompletion(
  endpoint: OpenAICompatibleJudge,
  request: EndpointRequest,
): PreparedCompletion {
  const baseURL = endpoint.baseURL ?? nonEmpty(process.env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL
  const problem = baseURLProblem(baseURL)
  if (problem) {
    const where = endpoint.baseURL !== undefined ? 'baseURL in the judge object' : 'OPENAI_BASE_URL'
    throw new UsageError(
      problem === 'credentials'
        ? messages.judgeBaseURLCredentials(endpoint.model, redactUrl(baseURL), where)
        : problem === 'query'
          ? messages.judgeBaseURLQuery(endpoint.model, redactUrl(baseURL), where)
          : messages.judgeBadBaseURL(endpoint.model, baseURL, where),
    )
  }
  const apiKey = endpoint.apiKey ?? nonEmpty(process.env.OPENAI_API_KEY)
  return { baseURL, apiKey, params: body(endpoint.model, request) }
}

/**
 * The second part of {@link completeWithEndpoint}: the request with rubricate's retries and
 * deadline, on one of two routes chosen once for the call: {@link replayCompletion} in replay
 * mode (no SDK), {@link sendLiveCompletion} in a mode that may go live.
 * @internal
 */
export async function sendCompletion(
  endpoint: OpenAICompatibleJudge,
  request: EndpointRequest,
  prepared: PreparedCompletion,
  signal: AbortSignal,
  onRequest: () => void,
  call: JudgeCallScope,
): Promise<JudgeReply> {
  const mayGoLive = judgeMayGoLive(call)
  // Only now, not when the judge was named: a replayed call needs no key, and in replay mode a
  // miss is reported as a miss.
  if (request.missingKey && prepared.apiKey === undefined && mayGoLive) {
    throw new UsageError(messages.judgeKeyMissing(endpoint.model, request.missingKey))
  }
  const run: CompletionRun = {
    endpoint,
    prepared,
    bounds: {
      caller: signal,
      deadlineMs: endpoint.deadlineMs ?? DEFAULT_DEADLINE_MS,
      timeoutMs: endpoint.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: endpoint.maxRetries ?? DEFAULT_MAX_RETRIES,
    },
    scope: { call, requests: 0, onRequest },
    fallback: request.responseFormat !== undefined && request.fallbackOnRejection === true,
  }
  return withRetries(run.bounds, transportFor(run, mayGoLive))
}

/** One completion on its way: its endpoint and request, its bounds and its requests. */
interface CompletionRun extends FailedCompletion {
  prepared: PreparedCompletion
  scope: RequestScope
}

// What is the SDK's in the call's retries (`withRetries`): how an attempt goes and reads its reply,
// which failures the SDK retries, and the rubricate error each end of the call is told as.
function transportFor(run: CompletionRun, mayGoLive: boolean): RetryTransport<JudgeReply> {
  return {
    buildAttempt: async () => {
      const route = await routeFor(run, mayGoLive)
      return async (signal) => replyOf(run, await route(signal))
    },
    failureRule: () => sdkFailureRule(run),
    deadlinePassed: (cause) => deadlinePassed(run, cause),
    aborted: () => callAborted(run),
  }
}

// Replay mode: nothing may reach the network, so no SDK client is built (replayCompletion).
// A default query is the SDK's to place: such a judge takes the live route in every mode.
async function routeFor(
  run: CompletionRun,
  mayGoLive: boolean,
): Promise<(attempt: AbortSignal) => Promise<unknown>> {
  const { endpoint, scope } = run
  const { baseURL, params } = run.prepared
  const { timeoutMs } = run.bounds
  const apiKey = run.prepared.apiKey ?? NO_KEY
  if (!mayGoLive && endpoint.query === undefined) {
    return (attempt) => replayCompletion(baseURL, apiKey, endpoint.headers, params, attempt, scope)
  }
  const client = await clientFor(endpoint, baseURL, apiKey, timeoutMs, fetchFor(scope))
  return (attempt) => sendLiveCompletion(client, params, attempt, timeoutMs, scope)
}

function replyOf(run: CompletionRun, completion: unknown): JudgeReply {
  const reply = completionReply(completion)
  if (reply) return reply
  const { endpoint, prepared } = run
  throw new JudgeRequestError(
    messages.judgeNotACompletion(endpoint.model, prepared.baseURL, bodyPreview(completion)),
    200,
  )
}

// The live route: the request through the SDK, whose fetch (`fetchFor`) hands it to the judge's
// exchange. The SDK reads a live reply; a cassette hit (mode `auto`) it never reads: the fetch
// parks it, read by `readCompletion` as the replay route reads every hit.
async function sendLiveCompletion(
  client: OpenAI,
  params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal,
  timeoutMs: number,
  scope: RequestScope,
): Promise<unknown> {
  scope.hit = undefined
  try {
    return await client.chat.completions.create(params, { signal, timeout: timeoutMs })
  } catch (error) {
    if (scope.hit) return await scope.hit
    throw error
  }
}

/**
 * The replay route: one request of a replay-mode call, without the SDK: the request the SDK
 * sends for `chat.completions.create(params)` (its URL, method, body and the headers that carry
 * secrets) handed to the judge's fetch, and its reply read by {@link readCompletion}. In replay
 * mode nothing reaches the network, so all the SDK does is build that request and read its
 * reply, and loading it costs every test file that replays a judge call (the suite figure "every
 * test a replayed rubric assertion", docs/guide/benchmarks.md).
 * test/cassettes/judge-one-path.test.ts holds the two requests equal.
 * @internal
 */
export async function replayCompletion(
  baseURL: string,
  apiKey: string,
  headers: Record<string, string> | undefined,
  params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal,
  scope: RequestScope = { call: judgeCallScope(), requests: 0, onRequest: () => {} },
): Promise<unknown> {
  const url = `${baseURL}${baseURL.endsWith('/') ? '' : '/'}chat/completions`
  let response: ExchangeReply
  try {
    response = await ownExchange(
      url,
      {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${apiKey}`,
          ...headers,
        },
        body: JSON.stringify(params),
        signal,
      },
      scope,
    )
  } catch (error) {
    throw await connectionFailure(error, signal)
  }
  // rubricate's own error (a miss), parked by the fetch: the call rethrows it as it was.
  const parked = scope.error
  if (parked !== undefined) throw parked
  return readCompletion(response, signal)
}

// The one reader of a judge reply the SDK does not read (every cassette hit, whatever the route,
// and every reply of the replay route), as the SDK reads one: an error status as the SDK's own
// error, a JSON body parsed, any other body as text.
async function readCompletion(
  response: ExchangeReply,
  signal?: AbortSignal | undefined,
): Promise<unknown> {
  let text: string
  try {
    // Read whole, as the SDK's fetch reads a live body (`wholeBody`): a body that breaks off is a
    // failed connection.
    text = await response.text()
  } catch (error) {
    throw await connectionFailure(error, signal)
  }
  if (response.status < 200 || response.status > 299) {
    const { APIError } = await import('openai')
    const json = jsonOrUndefined(text)
    throw APIError.generate(
      response.status,
      json as object | undefined,
      json === undefined ? text : undefined,
      response.response().headers,
    )
  }
  const type = response.header('content-type')?.split(';')[0]?.trim()
  if (response.status === 204) return null
  if (!(type?.includes('application/json') || type?.endsWith('+json'))) return text
  if (response.header('content-length') === '0') return undefined
  return JSON.parse(text)
}

// A request no cassette endpoint matches goes out as it is; its failure is the SDK's.
async function connectionFailure(
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (signal?.aborted) return error
  const { APIConnectionError } = await import('openai')
  return new APIConnectionError({
    cause: error instanceof Error ? error : new Error(String(error)),
  })
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function body(model: string, request: EndpointRequest) {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = []
  if (request.system) messages.push({ role: 'system', content: request.system })
  messages.push({ role: 'user', content: request.prompt })
  if (request.repair) {
    messages.push({ role: 'assistant', content: request.repair.reply })
    messages.push({ role: 'user', content: request.repair.instruction })
  }
  const params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { model, messages }
  // Sent only when set: reasoning models reject any non-default temperature.
  if (request.temperature !== undefined) params.temperature = request.temperature
  if (request.seed !== undefined) params.seed = request.seed
  if (request.responseFormat) {
    const { name, schema, strict } = request.responseFormat
    params.response_format = { type: 'json_schema', json_schema: { name, schema, strict } }
  }
  return params
}

// One client per call: building one costs little beside the call, and nothing is kept that a
// changed endpoint (its key, headers, timeout) could leave stale.
async function clientFor(
  endpoint: OpenAICompatibleJudge,
  baseURL: string,
  apiKey: string,
  timeoutMs: number,
  fetch: typeof globalThis.fetch,
): Promise<OpenAI> {
  const { default: OpenAIClient } = await import('openai')
  return new OpenAIClient({
    baseURL,
    apiKey,
    // rubricate retries (see completeWithEndpoint); the SDK's timeout is a backstop.
    maxRetries: 0,
    fetch,
    timeout: timeoutMs,
    ...(endpoint.headers && { defaultHeaders: endpoint.headers }),
    ...(endpoint.query && { defaultQuery: endpoint.query }),
  })
}

// "localhost:11434" parses as a URL with the scheme "localhost:"; only http(s) reaches a server.
// A URL with `user:password@` is refused by fetch itself ("Request cannot be constructed from a
// URL that includes credentials"), which the SDK would retry as a connection error. A query
// string is kept by the SDK in front of the path it appends ("/v1?api-key=k/chat/completions").
type URLProblem = 'not-http' | 'credentials' | 'query' | undefined

function baseURLProblem(value: string): URLProblem {
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (!url || !/^https?:$/.test(url.protocol)) return 'not-http'
  if (url.username || url.password) return 'credentials'
  if (url.search) return 'query'
  return undefined
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined
}
