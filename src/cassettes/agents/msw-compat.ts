/**
 * Where msw 2 and msw 3 differ in what rubricate uses: the `listen()` option for unhandled
 * requests, how to tell that msw intercepts, and how to release the clones msw makes for its
 * events. One code path for both majors; nothing here imports msw.
 */

/** What msw prints for an unhandled request, whichever major called the callback. @internal */
export interface UnhandledPrint {
  warn(): void
  error(): void
}

/** What to do with a request no handler answers: msw's strategies, or a callback. @internal */
export type UnhandledRequests =
  | 'bypass'
  | 'warn'
  | 'error'
  | ((request: Request, print: UnhandledPrint) => void)

/**
 * `server.listen()` options that mean the same on msw 2 and msw 3. msw 3 renamed
 * `onUnhandledRequest` to `onUnhandledFrame` (with a new callback shape) and silently ignores the
 * old key; msw 2 ignores the new one. So both keys are given, each in its version's shape.
 * @internal
 */
export function listenOptions(unhandled: UnhandledRequests): object {
  if (typeof unhandled === 'string') {
    return { onUnhandledRequest: unhandled, onUnhandledFrame: unhandled }
  }
  return {
    // msw 2: (request, print) with print.warning() / print.error().
    onUnhandledRequest: (request: Request, print: { warning(): void; error(): void }) =>
      unhandled(request, { warn: () => print.warning(), error: () => print.error() }),
    // msw 3: ({ frame, defaults }); HTTP frames carry the request, WebSocket frames are not ours.
    onUnhandledFrame: ({ frame, defaults }: { frame: MswFrame; defaults: UnhandledPrint }) => {
      const request = frame.protocol === 'http' ? frame.data?.request : undefined
      if (request instanceof Request) unhandled(request, defaults)
      else defaults.warn()
    },
  }
}

/**
 * msw takes a function as the path of `http.post` since 2.11; 2.10 and older call
 * `path.endsWith` on it and crash every request. @internal
 */
export function acceptsPredicates(mswVersion: string): boolean {
  const [major = 0, minor = 0] = mswVersion.split('.').map(Number)
  return major > 2 || (major === 2 && minor >= 11)
}

/**
 * A RegExp path whose match is decided by a function of the request URL, for msw below 2.11. msw
 * tests a RegExp path against the URL without query or hash (path-to-regexp's `match`, which calls
 * `exec`), so overriding `exec` gives those versions the same predicate, read afresh at each
 * request: `cassettes.match` may change after the handler was made.
 * @internal
 */
export class UrlPredicate extends RegExp {
  readonly #test: (href: string) => boolean

  constructor(test: (href: string) => boolean) {
    super('rubricate-model-call')
    this.#test = test
  }

  override exec(href: string): RegExpExecArray | null {
    if (!this.#test(href)) return null
    return Object.assign([href], {
      index: 0,
      input: href,
      groups: undefined,
    }) as unknown as RegExpExecArray
  }
}

interface MswFrame {
  protocol?: string
  data?: { request?: unknown }
}

// msw 2 (interceptors 0.41) keeps its running fetch interceptor on this global symbol.
const FETCH_INTERCEPTOR = Symbol.for('fetch-interceptor')
// msw 2.10 and older (interceptors 0.39 and older) key their running server's interceptors by a
// private symbol `Symbol('setup-server')` on globalThis: found by its description.
const SETUP_SERVER = 'setup-server'

/**
 * Some msw server (ours or the user's) is intercepting requests in this process. msw 2 puts its
 * fetch interceptor (2.11 and later) or its server's interceptors (2.10 and older) on a global
 * symbol while applied; msw 3 (interceptors 0.45) keeps its
 * interceptors in a global registry, `ACTIVE` while a server listens.
 * @internal
 */
export function isMswActive(): boolean {
  const global = globalThis as typeof globalThis & Record<PropertyKey, unknown>
  if (global[FETCH_INTERCEPTOR] !== undefined) return true
  for (const symbol of Object.getOwnPropertySymbols(global)) {
    if (symbol.description === SETUP_SERVER && global[symbol] !== undefined) return true
  }
  const registry = global.__MSW_INTERCEPTORS_REGISTRY
  if (!(registry instanceof Map)) return false
  for (const interceptor of registry.values()) {
    if ((interceptor as { readyState?: unknown } | undefined)?.readyState === 'ACTIVE') return true
  }
  return false
}

/** The part of an msw server's `events` that the guards use. @internal */
export interface MswEventsLike {
  on(type: any, listener: (event: any) => void): unknown
}

/**
 * msw clones every response for its `response:*` events. On msw 2 an unread clone keeps the
 * original's `cancel()` pending forever (mswjs/interceptors#712, #799): SDKs cancel the body of a
 * 429 before retrying, and openai 7 cancels every stream at `[DONE]`, so the call hangs. Reading
 * each clone to its end once listeners had their turn releases it. Cancelling it would also do on
 * msw 2, but throws an uncaught `ERR_INVALID_STATE` on msw 3, where reading is harmless.
 * @internal
 */
export function installTeeGuards(server: { events: MswEventsLike }): void {
  server.events.on('response:mocked', release)
  server.events.on('response:bypass', release)
}

/**
 * The same release, for the clones msw 2's fetch interceptor makes of responses that reached the
 * network: subscribed on the running interceptor itself, for a request that a server other than
 * rubricate's let through (its events have no tee guards). Once per interceptor.
 * @internal
 */
export function releaseInterceptedClones(): void {
  const global = globalThis as typeof globalThis & Record<PropertyKey, unknown>
  const emitter = (global[FETCH_INTERCEPTOR] as { emitter?: ListenerList } | undefined)?.emitter
  if (!emitter || typeof emitter.listeners !== 'function') return
  if (emitter.listeners('response').includes(release)) return
  emitter.on('response', release)
}

interface ListenerList {
  listeners(type: string): unknown[]
  on(type: string, listener: (event: any) => void): unknown
}

function release(event: { response?: Response } | undefined): void {
  const response = event?.response
  if (!response) return
  setImmediate(() => {
    if (response.bodyUsed || !response.body || response.body.locked) return
    response.arrayBuffer().catch(() => {})
  })
}
