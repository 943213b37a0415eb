import { currentRuntime, type Runtime } from '../../runtime/runtime'
import { errorReply, modelCallEndpoint } from './msw-handlers'
import { bypassIfIntercepted } from './msw-loader'
import { asRubricateLive } from './rubricate-live'
import { refusedTelemetry, telemetryRefusalReply } from './telemetry-gate'

/** Options of {@link createCassetteFetch}. */
export interface CassetteFetchOptions {
  /** The `fetch` that makes live calls. Default: the global `fetch` at the time of each call. */
  fetch?: typeof fetch | undefined
  /**
   * More URL path patterns of model calls to record, on top of the built-in endpoints, the known
   * provider hosts and `cassettes.match`. Default `[]`.
   */
  match?: (string | RegExp)[] | undefined
}

/**
 * A `fetch` that records and replays model calls through the same cassette store, without msw:
 * for scripts outside Vitest (an eval script, a notebook) or a client you would rather not
 * intercept. Requests to other endpoints pass straight through. The mode, folder and redaction
 * come from the configuration (`RUBRICATE_CASSETTES`, `configureRubricate`). A replay-mode miss
 * answers an OpenAI-shaped HTTP 400 whose message says how to record it.
 *
 * @example
 * const client = new OpenAI({ fetch: createCassetteFetch() })
 */
export function createCassetteFetch(options: CassetteFetchOptions = {}): typeof fetch {
  return cassetteFetchOf(currentRuntime(), options)
}

/** {@link createCassetteFetch} serving from `runtime` (the setup file's fallbacks hand theirs). @internal */
export function cassetteFetchOf(
  runtime: Runtime,
  options: CassetteFetchOptions = {},
): typeof fetch {
  const base =
    options.fetch ??
    ((request: Request) => asRubricateLive(() => globalThis.fetch(bypassIfIntercepted(request))))
  return async (input, init) => {
    const request = new Request(input, init)
    // A trace refused here fails as a refused connection does (its test is told already).
    const telemetry = refusedTelemetry(new URL(request.url), request.method, runtime)
    if (telemetry) return telemetryRefusalReply(telemetry)
    // The exchange engine and the store load at the first request, not with the setup file
    // (ARCHITECTURE.md §10): most test files make none.
    const [{ isLiveFailure, markLiveFailure }, { runAgentExchange }] = await Promise.all([
      import('../exchange/live-and-record'),
      import('./agent-exchange'),
    ])
    try {
      const url = new URL(request.url)
      const endpoint = modelCallEndpoint(url, runtime, options.match, request.headers)
      if (!endpoint) return await base(request).catch(markLiveFailure)
      return await runAgentExchange(request, url, endpoint, runtime, base)
    } catch (error) {
      if (isLiveFailure(error)) throw error
      return errorReply(error, runtime.session)
    }
  }
}
