import type { Runtime } from '../../runtime/runtime'
import { runtimeState } from '../../runtime/state'
import { cassetteFetchOf } from './fetch-adapter'
import { isMswActive, releaseInterceptedClones } from './msw-compat'
import { loadMswVersion } from './msw-loader'
import { isRubricateLive } from './rubricate-live'

/**
 * The agent path's second line on msw 2 (msw 3 has interceptor-fallback.ts, as it intercepts below
 * `fetch`): a `globalThis.fetch` wrapper installed under msw, so that a model
 * call that every msw server let through still meets the cassettes before it reaches the network.
 *
 * Why it is needed: all `setupServer()` servers of a process share msw's interceptors, and the
 * server that listens last takes the requests (msw 2.12 and later subscribe one shared source, and
 * `listen()` drops the other servers' subscriptions). A project whose setup file starts its own
 * server, without `attachRubricate`, silently turned rubricate's handlers off: nothing was
 * recorded, and a replay on CI went to the network. msw's fetch interceptor calls the `fetch` it
 * found when it was applied for every request no handler answers, so a wrapper installed before
 * the first server listens sees exactly those. rubricate's own live calls (the judge's, and the
 * handlers' recordings) are marked (rubricate-live.ts) and pass straight on.
 */

// The runtime's run-once guard: two copies of rubricate in one worker wrap `fetch` once.
const { installed } = runtimeState().process

/**
 * Wrap `globalThis.fetch` once per worker, before msw patches it. Nothing is installed when msw
 * already intercepts: a wrapper above msw would answer model calls before the user's own mocks.
 * @internal
 */
export function installFetchFallback(runtime: Runtime): void {
  if (installed.fetchFallback || isMswActive() || typeof globalThis.fetch !== 'function') return
  // msw 2 only: msw 3 patches no `fetch`, so this wrapper would sit above every msw 3 server.
  if (!loadMswVersion("the agents' cassettes").startsWith('2.')) return
  const original = globalThis.fetch
  const cassetteFetch = cassetteFetchOf(runtime, { fetch: (input, init) => original(input, init) })
  const fallback: typeof fetch = async (input, init) => {
    if (isRubricateLive()) return original(input, init)
    const response = await cassetteFetch(input, init)
    // msw 2 clones what this returns for its `response` event; nothing reads the clone when the
    // server that took the request is not rubricate's, and an unread clone hangs a cancelled body.
    releaseInterceptedClones()
    return response
  }
  globalThis.fetch = fallback
  installed.fetchFallback = true
}
