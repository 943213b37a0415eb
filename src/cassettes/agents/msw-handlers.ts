/** Options of {@link createCassetteHandlers}. */
import type { HttpHandler } from 'msw'
import { resolveConfig } from '../../config'
import { isRubricateError } from '../../errors'
import { messages } from '../../messages'
import { isLiveFailure } from '../exchange/exchange'
import { type CassetteSession, cassetteSession } from '../run/cassette-session'
import { matchEndpoint } from '../store/cassette-key'
import { runAgentExchange } from './agent-exchange'
import { acceptsPredicates, UrlPredicate } from './msw-compat'
import { loadMsw, loadMswVersion } from './msw-loader'
import { asRubricateLive } from './rubricate-live'

export interface CassetteHandlerOptions {
  /**
   * More URL path patterns of model calls to record, on top of the built-in endpoints and of
   * `cassettes.match` (a string suffix such as `'/v1/messages'`, or a RegExp). Default `[]`.
   */
  match?: (string | RegExp)[] | undefined
}

/**
 * msw request handlers that record and replay your own model calls (your agent's) and the HTTP
 * calls you name: requests of any method whose path ends in `/chat/completions`, `/completions`,
 * `/responses`, `/embeddings`, `/api/chat` or a `match` pattern (a tool's `GET /weather` too),
 * plain and streamed. Every other request is left to your handlers and to
 * `onUnhandledRequest`. A replay-mode miss answers an OpenAI-shaped HTTP 400 with
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
  const { http, bypass } = loadMsw('createCassetteHandlers()')
  const isModelCall = (href: string) => isModelCallUrl(href, options.match)
  // Every method: a tool's GET is recorded as a model's POST is (its method and query in the key).
  const handler = http.all(
    // msw 2.10's types know no predicate path, and 2.11's no RegExp subclass: one cast for both.
    (acceptsPredicates(loadMswVersion('createCassetteHandlers()'))
      ? ({ request }: { request: Request }) => isModelCall(request.url)
      : new UrlPredicate(isModelCall)) as Parameters<typeof http.all>[0],
    async ({ request }) => {
      const session = cassetteSession()
      try {
        const config = resolveConfig()
        const url = new URL(request.url)
        const patterns = [...config.cassettes.match, ...(options.match ?? [])]
        const endpoint = matchEndpoint(url.pathname, patterns) ?? url.pathname
        return await runAgentExchange(request, url, endpoint, config, (sent) =>
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
  return [handler]
}

/**
 * Whether `href` is a model call the agents' cassettes record: its path ends in a built-in
 * endpoint, a `cassettes.match` pattern or one of `extra`. An invalid configuration counts as one,
 * so that the cassettes answer with the error instead of msw passing the request on.
 * @internal
 */
export function isModelCallUrl(href: string, extra: readonly (string | RegExp)[] = []): boolean {
  try {
    const patterns = [...resolveConfig().cassettes.match, ...extra]
    return matchEndpoint(new URL(href).pathname, patterns) !== undefined
  } catch {
    return true
  }
}

/**
 * The HTTP reply for a rubricate error on the agent path: OpenAI-shaped, 400, not to be retried.
 * The session keeps the error so the test file fails even if user code swallows the reply.
 * @internal
 */
export function errorReply(error: unknown, session: CassetteSession = cassetteSession()): Response {
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
