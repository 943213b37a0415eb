import http from 'node:http'
import https from 'node:https'
import { type DeferredGate as Gate, runtimeState } from '../../runtime/state'
import { isMswActive } from './msw-compat'
import { isRubricateLive } from './rubricate-live'

/**
 * Start rubricate's msw server at the worker's first HTTP request instead of at the top of the setup
 * file (ARCHITECTURE.md §7.1): most test files make no HTTP request, and loading msw is most of
 * what the plugin alone costs a file ("the plugin alone", docs/guide/benchmarks.md).
 *
 * Why requests cannot slip through: until the server starts, `globalThis.fetch` and the `request`
 * and `get` of `node:http` and `node:https` are gates. A gate starts the server (which loads msw,
 * puts the functions the gates replaced back and patches them as at the top of the setup file),
 * then hands the call to what is there now: msw's patched function. A client built at module scope
 * keeps the gate it saw, and every call through it still reaches msw. When another msw server
 * already intercepts (a project's own, started before any request), the gate does not start
 * rubricate's (its `listen()` would take the requests from the project's server, as msw 2.12's
 * servers share one source): it is then the function below that server, and hands the call to the
 * function it replaced, the fetch fallback, as the fallback would have had it with the server
 * started early.
 *
 * msw 2 only: msw 3 intercepts below `fetch`, where a gate cannot wait for it; with msw 3, or in an
 * environment with `XMLHttpRequest` (jsdom), the setup file starts the server at once.
 */

// The start still to run (`undefined` once it ran or was given up) and the gates, in the runtime's
// process part: one set of gates per worker, whichever copy of the module installed them.
const slot = runtimeState().process.deferredServer

/**
 * Run `start` at the first request made through `fetch`, `http` or `https` in this worker,
 * instead of now. Once per worker; a later call while one is pending does nothing. @internal
 */
export function deferUntilFirstRequest(start: () => void): void {
  if (slot.pending || slot.gates.length > 0) return
  slot.pending = start
  gateProperty(globalThis, 'fetch')
  for (const module of [http, https]) {
    gateProperty(module, 'request')
    gateProperty(module, 'get')
  }
}

/** Whether a deferred start is still waiting for the first request. @internal */
export function isServerDeferred(): boolean {
  return slot.pending !== undefined
}

/**
 * Give up a deferred start (a project that attached rubricate to its own server): the gates then
 * only hand each call to the function they replaced. @internal
 */
export function cancelDeferredServer(): void {
  slot.pending = undefined
}

/** Run the deferred start now, if it is still waiting and no other msw server intercepts. @internal */
export function startDeferredServer(): void {
  const start = slot.pending
  if (!start || isMswActive()) return
  slot.pending = undefined
  // msw must wrap the functions the gates replaced, never a gate: a gate below msw would hand
  // msw's passed-through requests back to msw.
  for (const { target, name, below, gate } of slot.gates) {
    if ((target as Record<string, unknown>)[name] === gate) {
      ;(target as Record<string, unknown>)[name] = below
    }
  }
  start()
  for (const gate of slot.gates) {
    const now = (gate.target as Record<string, unknown>)[gate.name]
    if (now !== gate.below) gate.patched = now
  }
}

function gateProperty(target: object, name: string): void {
  const record = target as Record<string, unknown>
  const below = record[name]
  if (typeof below !== 'function') return
  const entry: Gate = {
    target,
    name,
    below: below as Gate['below'],
    gate: function rubricateGate(this: unknown, ...args: unknown[]): unknown {
      // rubricate's own live calls (the judge's) are not the agents': they need no server, and
      // one started under them would take them for an agent's call.
      if (!isRubricateLive()) startDeferredServer()
      // rubricate's server's patch while it is in place; otherwise the function the gate replaced:
      // no server of rubricate's started (another msw server intercepts, and this gate may be the
      // function below it, which must never hand a call back up), or msw put things back.
      const now = record[name]
      const next = entry.patched !== undefined && now === entry.patched ? now : below
      return (next as (...a: unknown[]) => unknown).apply(this, args)
    },
  }
  slot.gates.push(entry)
  record[name] = entry.gate
}
