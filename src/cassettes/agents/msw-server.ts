/**
 * The msw server of the agent path: started once per worker by the setup file, or rubricate's
 * handlers attached to the user's own server. Either way the tee guards are installed.
 */

/** The parts of an msw `setupServer()` server that rubricate uses. */
import { messages } from '../../messages'
import { currentRuntime, type Runtime } from '../../runtime/runtime'
import { runtimeState } from '../../runtime/state'
import {
  type CassetteRunFacts,
  type CassetteSession,
  setCassetteRunFacts,
} from '../run/cassette-session'
import { cancelDeferredServer, deferUntilFirstRequest } from './deferred-server'
import { installFetchFallback } from './fetch-fallback'
import { ensureInterceptorFallback, installInterceptorFallback } from './interceptor-fallback'
import { installTeeGuards, isMswActive, listenOptions } from './msw-compat'
import {
  type CassetteHandlerOptions,
  cassetteHandlersOf,
  createCassetteHandlers,
} from './msw-handlers'
import { isMswInstalled, loadMsw, loadMswNode, loadMswVersion } from './msw-loader'
import { installNetworkGuard } from './network-guard'

export interface MswServerLike {
  listHandlers(): readonly unknown[]
  resetHandlers(...handlers: any[]): void
  events: { on(type: any, listener: (event: any) => void): unknown }
}

type OwnServer = MswServerLike & { listen(options: object): void; close(): void }

const ATTACHED: unique symbol = Symbol.for('rubricate.attached') as never
// The server and its run-once guard live in the runtime's process part (ARCHITECTURE.md §12),
// shared by every copy of the module in the worker.
const { mswServer: slot, installed } = runtimeState().process

/** Options of {@link startCassetteServer}. @internal */
export interface StartCassetteServerOptions {
  /** The worker's runtime, which the handlers, the fallbacks and the guard serve from. Default: {@link currentRuntime}. */
  runtime?: Runtime | undefined
  /**
   * Print the notice that msw is not installed, once per worker. The plugin prints it once per
   * run in the main process, so a worker that has the plugin's options passes `false`.
   */
  announceMissingMsw?: boolean | undefined
  /**
   * Start the server at the worker's first HTTP request rather than now (deferred-server.ts), on
   * msw 2 outside environments with `XMLHttpRequest`. The setup file passes `true`. Default `false`.
   */
  deferServer?: boolean | undefined
}

/**
 * Start rubricate's msw server in this worker, once (later calls return the same session), and
 * return the cassette session. Call it at the top level of a setup file, so that clients built at
 * module scope of a test file see the patched `fetch`. Unhandled requests pass through
 * (`onUnhandledRequest: 'bypass'` on msw 2, `onUnhandledFrame: 'bypass'` on msw 3).
 * Starts nothing when `cassettes.server` is `'external'` (the user calls `attachRubricate`).
 * msw is an optional peer: without it the agents' calls are not intercepted at all (neither the
 * server nor the fetch fallback, so none is half recorded), with one notice; the judge's calls,
 * the matchers and the network guard need no msw.
 * @internal
 */
export function startCassetteServer(
  facts: CassetteRunFacts = {},
  options: StartCassetteServerOptions = {},
): CassetteSession {
  setCassetteRunFacts(facts)
  const runtime = options.runtime ?? currentRuntime()
  const msw = isMswInstalled()
  // Before any msw server patches `fetch`: the fallback then sees what every server lets through.
  if (msw) installFetchFallback(runtime)
  installNetworkGuard(runtime)
  if (!msw) {
    if (options.announceMissingMsw !== false && !slot.mswAbsentTold)
      console.warn(messages.mswAbsentNotice())
    slot.mswAbsentTold = true
  } else if (!slot.server && runtime.config().cassettes.server !== 'external') {
    if (options.deferServer && !isMsw3() && typeof globalThis.XMLHttpRequest === 'undefined') {
      deferUntilFirstRequest(() => startOwnServer(runtime))
    } else {
      startOwnServer(runtime)
    }
  }
  if (msw && isMsw3()) {
    installInterceptorFallback(runtime)
    followServers()
  }
  ensureAgentInterception()
  return runtime.session
}

function startOwnServer(runtime: Runtime): void {
  if (slot.server) return
  const { setupServer } = loadMswNode('The rubricate setup file')
  const server: OwnServer = setupServer(...cassetteHandlersOf(runtime))
  server.listen(listenOptions('bypass'))
  installTeeGuards(server)
  slot.server = server
}

/** Stop the server {@link startCassetteServer} started, if any. @internal */
export function stopCassetteServer(): void {
  slot.busy = true
  try {
    slot.server?.close()
  } finally {
    slot.busy = false
  }
  slot.server = undefined
}

/**
 * Keep the agents' calls intercepted on msw 3, where every server shares one interceptor source:
 * a server of the user's that stops also stops rubricate's, which still believes it listens, so it
 * is started again; and the fallback listener is put back last. Run before each test and whenever
 * an msw 3 server starts or stops. Nothing to do on msw 2 (its fetch fallback stays below msw).
 * @internal
 */
export function ensureAgentInterception(): void {
  if (slot.busy) return
  const server = slot.server
  if (server && !isMswActive() && installed.serverFollower) {
    slot.busy = true
    try {
      server.close()
      server.listen(listenOptions('bypass'))
    } finally {
      slot.busy = false
    }
  }
  ensureInterceptorFallback()
}

function isMsw3(): boolean {
  return loadMswVersion("the agents' cassettes").startsWith('3.')
}

/**
 * Follow the starts and stops of msw 3's servers: they all enable and disable the one interceptor
 * source `msw/node` exports, so its two methods are wrapped, once.
 */
function followServers(): void {
  if (installed.serverFollower) return
  installed.serverFollower = true
  const node = loadMswNode("the agents' cassettes") as unknown as {
    defaultNetworkOptions?: {
      sources?: { enable(...args: unknown[]): unknown; disable(...args: unknown[]): unknown }[]
    }
  }
  const followed =
    (method: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const result = method(...args)
      ensureAgentInterception()
      return result
    }
  for (const source of node.defaultNetworkOptions?.sources ?? []) {
    source.enable = followed(source.enable.bind(source))
    source.disable = followed(source.disable.bind(source))
  }
}

/**
 * Record and replay your agent's model calls through your own msw server: rubricate's handlers go
 * after yours (your mocks win), survive `server.resetHandlers()`, and the listeners that keep
 * retried requests from hanging are installed. Set the plugin option `cassettes.server:
 * 'external'` too, so rubricate does not start a server of its own; one already started in this
 * worker is closed. The judge's live calls are sent with msw's `bypass()`, so your server never
 * sees them, even when it errors on unhandled requests.
 *
 * @example
 * const server = setupServer(...handlers)
 * attachRubricate(server)
 * server.listen({ onUnhandledFrame: 'error' }) // msw 2: { onUnhandledRequest: 'error' }
 */
export function attachRubricate(server: MswServerLike, options: CassetteHandlerOptions = {}): void {
  const target = server as MswServerLike & { [ATTACHED]?: true }
  if (target[ATTACHED]) return
  // Before touching the server: without an msw that rubricate can load, say so by this name.
  loadMsw('attachRubricate(server)')
  cancelDeferredServer()
  if (slot.server && (slot.server as object) !== server) stopCassetteServer()
  const ours = createCassetteHandlers(options)
  const reset = server.resetHandlers.bind(server)
  reset(...server.listHandlers(), ...ours)
  // `resetHandlers(...next)` replaces the initial handlers: keep ours after the new ones.
  server.resetHandlers = (...next: unknown[]) =>
    next.length > 0 ? reset(...next, ...ours) : reset()
  installTeeGuards(server)
  target[ATTACHED] = true
}
