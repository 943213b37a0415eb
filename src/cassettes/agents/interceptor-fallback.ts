import type { Runtime } from '../../runtime/runtime'
import { runtimeState } from '../../runtime/state'
import { cassetteFetchOf } from './fetch-adapter'
import { isModelCallUrl } from './msw-handlers'
import { isRubricateLive } from './rubricate-live'

/**
 * The agent path's second line on msw 3 (msw 2 has fetch-fallback.ts): a model call that every
 * msw server let through still meets the cassettes before it reaches the network.
 *
 * Why it differs from msw 2's: msw 3 intercepts below `fetch` (its interceptors patch sockets and
 * `http`), so a `fetch` wrapper would sit above every server and answer model calls before the
 * user's own mocks (and, with rubricate's server, record each call twice and deadlock on its own
 * key). And all `setupServer()` servers share one interceptor source, whose `listen()` drops the
 * other servers' listeners: the server that listens last takes every request. So rubricate
 * listens on the interceptors themselves, after msw's own listener: by then msw has resolved the
 * request, and a request still pending is one no server answered. rubricate's own live calls
 * (the judge's, and the recordings) are marked (rubricate-live.ts) and left alone.
 *
 * A listener is dropped when an interceptor is disposed (the last server closed) and may end up
 * before msw's own after re-subscriptions, so {@link ensureInterceptorFallback} puts it back,
 * last, whenever a server starts or stops and before each test.
 */

/** What msw 3's interceptors (interceptors 0.45) emit for a request, in the parts used here. */
interface RequestEvent {
  request: Request
  controller: { readyState: unknown; respondWith(response: Response): void }
}

interface InterceptorLike {
  readyState?: unknown
  on(type: 'request', listener: (event: RequestEvent) => Promise<void>): unknown
  removeListener(type: 'request', listener: (event: RequestEvent) => Promise<void>): unknown
  listeners(type: 'request'): readonly unknown[]
}

// A request controller that nothing has answered yet (interceptors' RequestController.PENDING).
const PENDING = 0

// In the runtime's process part: two copies of rubricate in one worker listen once; the listener,
// once set, is the run-once guard.
const slot = runtimeState().process.interceptorFallback

/**
 * Turn the msw 3 fallback on in this worker, and subscribe it. Idempotent. @internal
 */
export function installInterceptorFallback(runtime: Runtime): void {
  if (!slot.listener) {
    const cassetteFetch = cassetteFetchOf(runtime)
    slot.listener = async ({ request, controller }: RequestEvent) => {
      if (controller.readyState !== PENDING || isRubricateLive() || slot.seen.has(request)) return
      if (!isModelCallUrl(request.url, runtime)) return
      slot.seen.add(request)
      // Loaded at the first model call, not with the setup file (ARCHITECTURE.md §10).
      const { isLiveFailure } = await import('../exchange/live-and-record')
      try {
        controller.respondWith(await cassetteFetch(request))
      } catch (error) {
        // No connection, or a body cut off: a network error for the client, as it was live.
        if (isLiveFailure(error)) controller.respondWith(Response.error())
        else throw error
      }
    }
  }
  ensureInterceptorFallback()
}

/**
 * Put the fallback last among the `request` listeners of every running msw 3 interceptor. Cheap
 * (a few interceptors, a few listeners); a no-op before {@link installInterceptorFallback}.
 * @internal
 */
export function ensureInterceptorFallback(): void {
  const listener = slot.listener
  if (!listener) return
  for (const interceptor of runningInterceptors()) {
    const listeners = interceptor.listeners('request')
    if (listeners[listeners.length - 1] === listener) continue
    interceptor.removeListener('request', listener)
    interceptor.on('request', listener)
  }
}

function runningInterceptors(): InterceptorLike[] {
  const registry = (globalThis as { __MSW_INTERCEPTORS_REGISTRY?: unknown })
    .__MSW_INTERCEPTORS_REGISTRY
  if (!(registry instanceof Map)) return []
  return [...registry.values()].filter(
    (each): each is InterceptorLike =>
      (each as InterceptorLike | undefined)?.readyState === 'ACTIVE' &&
      typeof (each as InterceptorLike).listeners === 'function',
  )
}
