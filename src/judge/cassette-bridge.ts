// The judge's one door to the cassettes: what the judge needs of the store is re-exported here, so
// no other module of src/judge/ imports from src/cassettes/.

import { modelCallRecord } from '../cassettes/agents/model-call-record'
import { bypassIfIntercepted } from '../cassettes/agents/msw-loader'
import { asRubricateLive } from '../cassettes/agents/rubricate-live'
import { exchange } from '../cassettes/exchange/exchange'
import { type ExchangeInput, prepareRequest } from '../cassettes/exchange/prepared-request'
import type { ExchangeReply } from '../cassettes/exchange/replay'
import { storeFor } from '../cassettes/store/cassette-store'
import { isProviderHost, modelEndpoint, requestModel } from '../cassettes/store/model-endpoint'
import { testLabel } from '../config/paths'
import type { ResolvedConfig } from '../config/resolve-config'
import { JudgeRequestError } from '../errors'
import { messages } from '../messages'
import type { JudgeCompleteOptions, JudgeModel, JudgeReply, JudgeRequest } from '../records/records'
import type { ModelCallsAsJudge } from '../runtime/call-context'
import { logModelCall } from '../runtime/model-call-log'
import { currentRuntime, type Runtime } from '../runtime/runtime'
import { type JudgeCallScope, judgeCallScope } from './judge-call-scope'
import { addLiveCost, withLiveLimits } from './live-limits'
import { usageOf } from './price-table'

export { responseReply } from '../cassettes/exchange/live-and-record'
export { replayedFrom } from '../cassettes/exchange/record-command'
export { type ExchangeReply, isWholeReplay } from '../cassettes/exchange/replay'

import { redactUrl } from '../cassettes/redaction/redaction'

export { canonicalJson } from '../cassettes/store/canonical-json'
export { redactUrl }

/**
 * The judge's path to the cassettes (ARCHITECTURE.md §7.1): the SDK's `fetch` and `cached()` hand
 * every request to the engine's one `exchange`, never through msw, so no retry hang and no
 * `onUnhandledRequest` surprise. Both are handed the call's {@link JudgeCallScope}: its mode, test,
 * prompt version and listeners.
 */

/**
 * Marks a judge model that serves its own calls from cassettes (or needs none) and reports its
 * own exchanges, so the judge does not wrap it in {@link cached} a second time. Its value is the
 * model's {@link CompleteInCall}: how the judge hands such a model the call it serves.
 * @internal
 */
export const CASSETTE_AWARE: unique symbol = Symbol.for('rubricate.cassetteAware') as never

/** A cassette-aware model's completion within one judge call. @internal */
export type CompleteInCall = (
  request: JudgeRequest,
  options: JudgeCompleteOptions,
  call: JudgeCallScope,
) => Promise<JudgeReply>

/** True when `model` came from {@link cached} (or otherwise handles cassettes itself). @internal */
export function isCassetteAware(model: JudgeModel): boolean {
  return typeof ownCompletion(model) === 'function'
}

/**
 * The key a judge's OpenAI client is built with when none is set: the SDK refuses to construct
 * without one, and a replayed call never reaches the provider, so replay needs no key.
 * @internal
 */
export const NO_API_KEY = 'rubricate-no-api-key'

/**
 * A live judge request to a provider's host (api.openai.com, ...) without a key is refused before
 * it is sent: the provider can only answer 401, and an unreachable host would be retried until
 * the deadline. A keyless local server (Ollama, a proxy) is called as it is.
 */
function refuseKeylessProviderCall(
  url: URL,
  keyless: boolean,
  config: ResolvedConfig,
  model: string | undefined,
): void {
  if (!keyless || !isProviderHost(url.hostname, config.cassettes.providerHosts)) return
  const base = url.href.replace(/\/chat\/completions(?:\?.*)?$/, '')
  throw new JudgeRequestError(messages.judgeNoApiKeyLive(model ?? 'unknown', redactUrl(base)))
}

/**
 * Complete `request` with `model` as part of `call`: recorded and replayed like {@link cached},
 * unless the model handles cassettes itself. @internal
 */
export function completeInCall(
  model: JudgeModel,
  request: JudgeRequest,
  options: JudgeCompleteOptions,
  call: JudgeCallScope,
): Promise<JudgeReply> {
  const own = ownCompletion(model)
  return own ? own(request, options, call) : cachedCompletion(model, request, options, call)
}

function ownCompletion(model: JudgeModel): CompleteInCall | undefined {
  const own = (model as JudgeModel & { [CASSETTE_AWARE]?: unknown })[CASSETTE_AWARE]
  return typeof own === 'function' ? (own as CompleteInCall) : undefined
}

/**
 * The `fetch` that a judge's OpenAI client is built with, for one call: {@link judgeExchange}'s
 * reply as a `Response`.
 * @internal
 */
export function judgeFetch(call: JudgeCallScope = judgeCallScope()): typeof fetch {
  return async (input, init) => (await judgeExchange(input, init, call)).response()
}

/**
 * One HTTP request of the judge through the cassettes. It serves `call` from the cassette store
 * or makes it live, as the call's mode allows, and reports every HTTP exchange (each retry is
 * one: the SDK is built with `maxRetries: 0`, rubricate retries through it) to
 * `call.onExchange`. The SDK takes the reply as a
 * `Response` (`fetchFor` in `openai-judge.ts`, {@link judgeFetch}); in replay mode the judge reads
 * it itself (`replayCompletion`), so a replayed call builds no `Response` and loads no undici.
 *
 * A replay-mode miss, a limit or a refused recording is thrown as the rubricate error; the
 * judge's own fetch wrapper turns it into a reply the SDK does not retry and rethrows it. A
 * failed connection is thrown as it came, for the SDK to retry.
 * @internal
 */
export async function judgeExchange(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  call: JudgeCallScope,
): Promise<ExchangeReply> {
  const request = await httpRequestOf(input, init)
  const runtime = currentRuntime()
  const { config } = call
  const { cassettes } = config
  // One rule for which requests are model calls and what their key holds, the agents' own
  // (`modelEndpoint`): the SDK's `/chat/completions` is built in, and a path a string pattern
  // names after a `/` or a `:`, or any path on a provider host, is keyed by its path below the
  // origin, never sent live unrecorded.
  const found =
    request.method === 'POST'
      ? modelEndpoint(request.url, cassettes.match, cassettes.providerHosts, cassettes.matchAnyHost)
      : undefined
  // The model the body names, read when first asked for (limits, cost, the log), by the rule
  // that keys it.
  let model: { name: string | undefined } | undefined
  const modelOf = () => {
    model ??= { name: requestModel(request.bodyText) }
    return model.name
  }
  const side = judgeSide(runtime, config, call, modelOf, found?.endpoint ?? request.url.pathname)
  const live = (rewrite?: ((text: string) => string) | undefined) => {
    refuseKeylessProviderCall(request.url, request.keyless, config, modelOf())
    return liveCall(call, () => sendLive(request, rewrite))
  }
  const prepare = (rewrite?: ((text: string) => string) | undefined) =>
    prepareRequest({
      method: request.method,
      endpoint: (found as NonNullable<typeof found>).endpoint,
      queryInKey: found?.queryInKey,
      body: rewrite ? rewrite(request.bodyText) : request.bodyText,
      url: rewrite ? new URL(rewrite(request.url.href)) : request.url,
      headers: request.headers,
      redact: cassettes.redact,
      normalize: cassettes.normalize,
      trial: call.trial,
    })
  return exchange({
    ...side,
    // A request no cassette endpoint matches goes live as it is.
    mode: found ? undefined : 'off',
    prepare,
    url: request.url,
    keyless: request.keyless,
    live,
    // A 200 web page (a proxy's login page) is an error the judge reports, never a reply to replay.
    recordable: (body) => body.json !== undefined,
  })
}

/** The judge's HTTP request as its client made it, read once for every use. */
interface JudgeHttpRequest {
  input: RequestInfo | URL
  init: RequestInit | undefined
  url: URL
  method: string
  bodyText: string
  headers: [string, string][]
  /** The judge's client carries the placeholder key when none is set (NO_API_KEY). */
  keyless: boolean
}

async function httpRequestOf(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<JudgeHttpRequest> {
  const bodyText = typeof init?.body === 'string' ? init.body : await bodyTextOf(input, init)
  const headers = headerEntries(
    init?.headers ?? (input instanceof Request ? input.headers : undefined),
  )
  return {
    input,
    init,
    url: new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url),
    method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
    bodyText,
    headers,
    keyless: headers.some(
      ([name, value]) =>
        /^(authorization|api-key|x-api-key)$/i.test(name) && value.includes(NO_API_KEY),
    ),
  }
}

// The request as the client made it, or with the ids rewritten (ARCHITECTURE.md §7.10), sent
// past msw: the judge's calls are recorded here, never again as an agent's.
function sendLive(
  request: JudgeHttpRequest,
  rewrite: ((text: string) => string) | undefined,
): Promise<Response> {
  const { input, init, method, bodyText, url } = request
  const body = rewrite && bodyText !== '' ? rewrite(bodyText) : bodyText
  const sent = new Request(rewrite ? rewrite(url.href) : input, {
    ...init,
    ...(input instanceof Request ? { method, headers: input.headers } : {}),
    body: body === '' ? null : body,
  })
  return asRubricateLive(() => globalThis.fetch(bypassIfIntercepted(sent)))
}

// Counted as it is sent; one that fails is a live exchange with no reply to record.
async function liveCall(call: JudgeCallScope, send: () => Promise<Response>): Promise<Response> {
  call.onLiveRequest()
  try {
    return await send()
  } catch (error) {
    call.onExchange({ source: 'live' })
    throw error
  }
}

/**
 * What the judge hands the exchange engine beside the request: its limits around every live
 * request, its cost counted from each live reply, and the call's prompt version, test and listener.
 */
function judgeSide(
  runtime: Runtime,
  config: ResolvedConfig,
  call: JudgeCallScope,
  modelOf: () => string | undefined,
  endpoint: string,
): Pick<
  ExchangeInput,
  | 'caller'
  | 'runtime'
  | 'config'
  | 'test'
  | 'testIsExact'
  | 'promptVersion'
  | 'limit'
  | 'onLiveJson'
  | 'onExchange'
> {
  return {
    caller: 'judge',
    runtime,
    config,
    test: call.test,
    testIsExact: true,
    promptVersion: call.promptVersion,
    limit: (send) => withLiveLimits(config, modelOf(), send),
    onLiveJson:
      config.maxCost === undefined ? undefined : (json) => countLiveCost(config, modelOf(), json),
    onExchange: (event) => {
      // Every judge exchange, its retries included, goes into the test's log for budgets.
      logModelCall(modelCallRecord('judge', endpoint, modelOf(), event))
      call.onExchange(event)
    },
  }
}

/**
 * The judge's side for model calls a scorer makes through the agents' path (a Mastra scorer's
 * judge is an agent of its own): the same live limits and cost as the judge's own calls, under
 * the configuration of each call.
 * @internal
 */
export const modelCallsAsJudge: ModelCallsAsJudge = {
  limit: (config, model, send) => withLiveLimits(config, model, send),
  onLiveJson: (config, model, json) => {
    if (config.maxCost !== undefined) countLiveCost(config, model, json)
  },
}

// The one place live judge cost is counted. An endpoint's reply carries OpenAI's usage, a custom
// model's rubricate's own; a reply names its model when the request did not.
function countLiveCost(config: ResolvedConfig, model: string | undefined, json: unknown): void {
  const reply = json as { model?: unknown } | undefined
  const named = typeof reply?.model === 'string' ? reply.model : undefined
  addLiveCost(config, model ?? named, usageOf(json))
}

/** False when `call`'s cassette mode is `replay`: nothing may reach the network. @internal */
export function judgeMayGoLive(call: JudgeCallScope): boolean {
  return call.config.cassettes.mode !== 'replay'
}

/**
 * Wrap a custom judge model so that its replies are recorded to and replayed from cassettes,
 * keyed on its `JudgeRequest` and its `id`, like the replies of an OpenAI-compatible judge. The
 * judge wraps every custom model automatically; wrapping twice has no further effect. A
 * replay-mode miss throws `RUBRICATE_CASSETTE_MISS` and never calls the model.
 *
 * @example
 * configureRubricate({ judge: cached(myJudgeModel) })
 */
export function cached(model: JudgeModel): JudgeModel {
  if (isCassetteAware(model)) return model
  const inCall: CompleteInCall = (request, options, call) =>
    cachedCompletion(model, request, options, call)
  return {
    id: model.id,
    [CASSETTE_AWARE]: inCall,
    // Called on its own, outside a judge call: the call is the running test's, with no listener.
    complete: (request, options) => inCall(request, options, judgeCallScope()),
  } as JudgeModel
}

async function cachedCompletion(
  model: JudgeModel,
  request: JudgeRequest,
  options: JudgeCompleteOptions,
  call: JudgeCallScope,
): Promise<JudgeReply> {
  return ownCall(call, {
    endpoint: 'judge-model',
    id: model.id,
    body: { model: model.id, ...request },
    send: async () => judgeReply(await model.complete(request, options)),
    read: (reply) =>
      typeof (reply as JudgeReply)?.text === 'string' ? (reply as JudgeReply) : undefined,
    unreadable: 'its "response.json" is not a judge reply with a "text" string',
  })
}

/**
 * An embedding function recorded and replayed like a custom judge model: one cassette entry per
 * call, keyed on the embedder's `id` and the texts, its reply `{ embeddings, usage? }`. A
 * replay-mode miss throws `RUBRICATE_CASSETTE_MISS` and never calls `embed`.
 * @internal
 */
export function cachedEmbedder(
  id: string,
  embed: (texts: string[]) => Promise<{ embeddings: number[][]; usage?: unknown }>,
  call: JudgeCallScope,
): (texts: string[]) => Promise<number[][]> {
  return (texts) =>
    ownCall(call, {
      endpoint: 'embed-model',
      id,
      body: { model: id, input: texts },
      send: () => embed(texts),
      read: (reply) => {
        const embeddings = (reply as { embeddings?: unknown } | null)?.embeddings
        const valid =
          Array.isArray(embeddings) &&
          embeddings.every((v) => Array.isArray(v) && v.every((n) => typeof n === 'number'))
        return valid ? (embeddings as number[][]) : undefined
      },
      unreadable: 'its "response.json" holds no "embeddings" list of number lists',
    })
}

/** A call of rubricate's own that is no HTTP request (a custom judge model, an embedder). */
interface OwnCall<T> {
  endpoint: 'judge-model' | 'embed-model'
  id: string
  /** The request as keyed and stored. */
  body: Record<string, unknown>
  /** The live call; its reply is stored as JSON. */
  send: () => Promise<unknown>
  /** The reply as its caller reads it; `undefined` for a stored reply it cannot read. */
  read: (reply: unknown) => T | undefined
  /** What is wrong with an entry `read` refuses, for the corrupt-file error. */
  unreadable: string
}

// One cassette entry per call, through the same exchange as the judge's HTTP requests.
async function ownCall<T>(call: JudgeCallScope, own: OwnCall<T>): Promise<T> {
  const runtime = currentRuntime()
  const { config } = call
  const side = judgeSide(runtime, config, call, () => own.id, own.endpoint)
  const prepare = () =>
    prepareRequest({
      method: 'CALL',
      endpoint: own.endpoint,
      body: own.body,
      redact: config.cassettes.redact,
      normalize: config.cassettes.normalize,
      trial: call.trial,
    })
  // The key the exchange served: with its occurrence in the test, which `prepare` alone
  // does not know, so a bad entry is named by its own file.
  let served: string | undefined
  const response = await exchange({
    ...side,
    prepare,
    url: new URL(`rubricate:${own.endpoint}/${encodeURIComponent(own.id)}`),
    live: () => liveCall(call, async () => Response.json(await own.send())),
    onExchange: (event) => {
      served = event.key
      side.onExchange?.(event)
    },
  })
  const reply = own.read(JSON.parse(await response.text()))
  if (reply !== undefined) return reply
  const store = storeFor(runtime.stores, config.cassettes.dir)
  const file = store.file(served ?? prepare().key, side.test && testLabel(side.test))
  throw store.corrupt(file, own.unreadable)
}

/**
 * A custom model's reply as the judge reads it: without a `text` string it is an empty reply
 * (which the judge repairs, then reports as `RUBRICATE_JUDGE_OUTPUT`), recorded as such, so that
 * a model's bad reply is never mistaken for a corrupt cassette file.
 */
function judgeReply(reply: JudgeReply | null | undefined): JudgeReply {
  if (typeof reply?.text === 'string') return reply
  return typeof reply === 'object' && reply !== null ? { ...reply, text: '' } : { text: '' }
}

async function bodyTextOf(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<string> {
  const body = init?.body
  if (typeof body === 'string') return body
  if (body !== undefined && body !== null) return new Response(body).text()
  if (input instanceof Request) return input.clone().text()
  return ''
}

// Told apart without `instanceof Headers`: the first use of the global `Headers` loads Node's
// fetch (undici), which a replayed judge call, its headers a plain object, does not need (§10).
function headerEntries(headers: HeadersInit | undefined): [string, string][] {
  if (!headers) return []
  if (Array.isArray(headers)) return headers as [string, string][]
  if (typeof (headers as Headers).forEach === 'function')
    return Array.from(headers as unknown as Iterable<[string, string]>)
  return Object.entries(headers as Record<string, string>)
}
