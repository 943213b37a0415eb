/** Options of {@link createCassetteHandlers}. */
import type { HttpHandler } from 'msw'
import { isRubricateError } from '../../errors'
import { messages } from '../../messages'
import { currentRuntime, type Runtime } from '../../runtime/runtime'
import type { CassetteSession } from '../run/cassette-session'
import {
  type HeaderReader,
  isTelemetry,
  type ModelEndpoint,
  modelEndpoint,
} from '../store/model-endpoint'
import { acceptsPredicates, UrlPredicate } from './msw-compat'
import { loadMsw, loadMswVersion } from './msw-loader'
import { asRubricateLive } from './rubricate-live'
import { refusedTelemetry, telemetryRefusalReply } from './telemetry-gate'

export interface CassetteHandlerOptions {
  /**
   * More URL path patterns of model calls to record, on top of the built-in endpoints, the known
   * provider hosts and `cassettes.match` (a string that ends the path after a `/` or a `:`, such
   * as `'/v1/rerank'` or `':predict'`, or a RegExp). Default `[]`.
   */
  match?: (string | RegExp)[] | undefined
}

/**
 * msw request handlers that record and replay your own model calls (your agent's) and the HTTP
 * calls you name, plain and streamed, requests of any method: paths that end in
 * `/chat/completions`, `/completions`, `/responses`, `/embeddings`, `/api/chat`; the native APIs
 * (Anthropic's `/v1/messages`, Gemini's and Vertex's `models/<model>:generateContent` and
 * `:streamGenerateContent`, Bedrock runtime's `model/<id>/converse`, the OpenAI Conversations
 * API); every request to a known model provider's host (`cassettes.providerHosts` adds more); and
 * a `match` pattern (a tool's `GET /weather` too). Every other request is left to your handlers
 * and to `onUnhandledRequest`. A replay-mode miss answers an OpenAI-shaped HTTP 400 with
 * `x-should-retry: false` (so SDKs do not retry) and is recorded in the cassette session, which
 * fails the test file even when your code swallowed the error.
 *
 * Most projects never call this: `rubricate/setup` starts a server with these handlers, and
 * {@link attachRubricate} adds them to a server of your own.
 *
 * @example
 * const server = setupServer(...myHandlers, ...createCassetteHandlers())
 */
export function createCassetteHandlers(options: CassetteHandlerOptions = {}): HttpHandler[] {
  return cassetteHandlersOf(currentRuntime(), options)
}

/** {@link createCassetteHandlers} serving from `runtime` (the setup file hands its own). @internal */
export function cassetteHandlersOf(
  runtime: Runtime,
  options: CassetteHandlerOptions = {},
): HttpHandler[] {
  const { http, bypass } = loadMsw('createCassetteHandlers()')
  const isModelCall = (href: string) => isModelCallUrl(href, runtime, options.match)
  // Every method: a tool's GET is recorded as a model's POST is (its method and query in the key).
  const handler = http.all(
    // msw 2.10's types know no predicate path, and 2.11's no RegExp subclass: one cast for both.
    (acceptsPredicates(loadMswVersion('createCassetteHandlers()'))
      ? ({ request }: { request: Request }) => isModelCall(request.url)
      : new UrlPredicate(isModelCall)) as Parameters<typeof http.all>[0],
    async ({ request }) => {
      const session = runtime.session
      // Loaded at the first model call, not with the setup file (ARCHITECTURE.md §10).
      const [{ isLiveFailure }, { runAgentExchange }] = await Promise.all([
        import('../exchange/live-and-record'),
        import('./agent-exchange'),
      ])
      try {
        const url = new URL(request.url)
        // The predicate took it for a model call: an endpoint is always found here.
        const endpoint = modelCallEndpoint(url, runtime, options.match, request.headers) ?? {
          endpoint: url.pathname.replace(/^\/+/, ''),
          queryInKey: true,
          by: 'pattern' as const,
        }
        return await runAgentExchange(request, url, endpoint, runtime, (sent) =>
          asRubricateLive(() => globalThis.fetch(bypass(sent))),
        )
      } catch (error) {
        // Never throw from a handler: msw turns it into a 500 that SDKs retry.
        // No connection, or a body cut off: a network error for the client, as it was live.
        if (isLiveFailure(error)) return Response.error()
        return errorReply(error, session)
      }
    },
  )
  // Traces and telemetry: refused in replay mode (and with `cassettes.telemetry: 'refuse'`), else
  // left to the next handler and to the network, never recorded.
  const isTelemetryUrl = (href: string) => {
    try {
      return isTelemetry(new URL(href))
    } catch {
      return false
    }
  }
  const telemetry = http.all(
    (acceptsPredicates(loadMswVersion('createCassetteHandlers()'))
      ? ({ request }: { request: Request }) => isTelemetryUrl(request.url)
      : new UrlPredicate(isTelemetryUrl)) as Parameters<typeof http.all>[0],
    ({ request }) => {
      const refusal = refusedTelemetry(new URL(request.url), request.method, runtime)
      return refusal ? telemetryRefusalReply(refusal) : undefined
    },
  )
  return [handler, telemetry]
}

/**
 * Whether `href` is a model call the agents' cassettes record: a built-in endpoint (OpenAI-shaped
 * or a provider's native API), a `cassettes.match` pattern or one of `extra`, or a request to a
 * known provider host (`cassettes.providerHosts` too). An invalid configuration counts as one, so
 * that the cassettes answer with the error instead of msw passing the request on.
 * @internal
 */
export function isModelCallUrl(
  href: string,
  runtime: Runtime,
  extra: readonly (string | RegExp)[] = [],
): boolean {
  try {
    return modelCallEndpoint(new URL(href), runtime, extra) !== undefined
  } catch {
    return true
  }
}

/**
 * The endpoint of a model call to `url` under `runtime`'s configuration, with `extra` patterns
 * and the request's `headers` (an AI Gateway call names its model there);
 * `undefined` for a request that is not one. Each pattern that matches is noted, so that a pattern
 * that never matched can be reported (ARCHITECTURE.md §7.3).
 * @internal
 */
export function modelCallEndpoint(
  url: URL,
  runtime: Runtime,
  extra: readonly (string | RegExp)[] = [],
  headers?: HeaderReader | undefined,
): ModelEndpoint | undefined {
  const { match, providerHosts, matchAnyHost } = runtime.config().cassettes
  const found = modelEndpoint(url, [...match, ...extra], providerHosts, matchAnyHost, headers)
  if (found) runtime.session.notePatternUse(found, url)
  return found
}

/**
 * The HTTP reply for a rubricate error on the agent path: OpenAI-shaped, 400, not to be retried.
 * The session keeps the error so the test file fails even if user code swallows the reply.
 * @internal
 */
export function errorReply(error: unknown, session: CassetteSession): Response {
  const known = isRubricateError(error)
  const failure = known
    ? error
    : new Error(messages.bug(`The cassette handler failed: ${String(error)}`))
  if (!known || error.code !== 'RUBRICATE_CASSETTE_MISS') session.recordError(failure)
  return Response.json(
    {
      error: {
        message: failure.message,
        type: 'rubricate_error',
        code: known ? error.code : 'RUBRICATE_BUG',
        param: null,
      },
    },
    { status: 400, headers: { 'x-should-retry': 'false' } },
  )
}
