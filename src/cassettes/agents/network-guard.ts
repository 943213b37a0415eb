import net from 'node:net'
import type { Runtime } from '../../runtime/runtime'
import { runtimeState } from '../../runtime/state'
import { isHostIn, isProviderHost, TELEMETRY_HOSTS } from '../store/model-endpoint'
import { type RefusalKind, refuseConnection } from './network-refusal'
import { isRubricateLive } from './rubricate-live'

/**
 * In replay mode every connection outside loopback is refused before it opens, whatever client
 * opens it (fetch, `http`/`https`, `net`/`tls` sockets, WebSockets all connect through
 * `net.Socket.prototype.connect`), unless `cassettes.allowHosts` names its host: a replay needs no
 * network, so such a connection is a model call rubricate never saw (a client that bypasses msw, a
 * server of the user's that rubricate is not attached to, a default public base URL), a tracer's
 * export, or a service the test depends on, which the user allows by name. The refusal fails the
 * test that opened it even when the code under test swallows the error (network-refusal.ts).
 * `cassettes.blockNetwork: false` narrows it to the hosts of model providers
 * (`cassettes.providerHosts` too) and of tracing services, which are refused in any case; a
 * provider's host is never allowed. Loopback stays open: local fakes and databases.
 * Installed once per worker by the setup file (the runtime's `installed.networkGuard`); the
 * configuration of the runtime it was installed with is read at each connection.
 */

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

type Lookup = (
  hostname: string,
  options: object,
  callback: (error: Error | null, address: unknown, family?: number) => void,
) => void

/** Guard `net.Socket.prototype.connect` (TLS and HTTP clients all connect through it). @internal */
export function installNetworkGuard(runtime: Runtime): void {
  const { installed } = runtimeState().process
  if (installed.networkGuard) return
  installed.networkGuard = true
  const connect = net.Socket.prototype.connect
  net.Socket.prototype.connect = function rubricateNetworkGuard(
    this: net.Socket,
    ...args: unknown[]
  ): net.Socket {
    const guard = guarding(runtime)
    if (guard === 'off') return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
    // net.connect() passes its normalised arguments as one array: [options, callback].
    const normalised = Array.isArray(args[0])
    const first = normalised ? (args[0] as unknown[])[0] : args[0]
    const options =
      typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined
    if (options?.path !== undefined)
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
    const host = String(
      options ? (options.host ?? 'localhost') : typeof args[1] === 'string' ? args[1] : 'localhost',
    )
    const refusal = refusalFor(host, guard)
    if (!refusal) return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
    if (net.isIP(host)) {
      if (!LOOPBACK.test(host)) return refuse(this, refusal)
    } else if (host !== 'localhost') {
      // A name is allowed only when it resolves to loopback. msw 3 connects the socket of a mocked
      // request with a lookup of its own that answers loopback: that request never leaves.
      const lookup = options?.lookup
      if (typeof lookup !== 'function') return refuse(this, refusal)
      const guarded = { ...options, lookup: loopbackOnly(lookup as Lookup, refusal) }
      // In place: net marks its normalised array, and a copy would be normalised again.
      if (normalised) (args[0] as unknown[])[0] = guarded
      else args[0] = guarded
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
  }
}

/**
 * Fail the connection the way a refused one fails: the socket emits the error on a later tick.
 * A throw from `connect` is not seen by every caller: msw 3 opens the real socket of a request it
 * lets through inside its own promise, where a throw became an unhandled rejection and the request
 * hung.
 */
function refuse(socket: net.Socket, what: RefusalKind): net.Socket {
  const error = refuseConnection(what)
  process.nextTick(() => socket.destroy(error))
  return socket
}

interface Guard {
  providers: readonly string[]
  everything: boolean
  allowed: readonly string[]
}

/**
 * What the guard refuses now: nothing outside replay mode and for rubricate's own live requests;
 * in replay mode every host outside loopback that `allowHosts` does not name, or with
 * `blockNetwork: false` the provider hosts (the extra ones are returned) and tracing services'.
 */
function guarding(runtime: Runtime): 'off' | Guard {
  if (isRubricateLive()) return 'off'
  try {
    const cassettes = runtime.config().cassettes
    if (cassettes.mode !== 'replay') return 'off'
    return {
      providers: cassettes.providerHosts,
      everything: cassettes.blockNetwork,
      allowed: cassettes.allowHosts,
    }
  } catch {
    // An invalid configuration is reported where it is used; a connection is no place for it.
    return 'off'
  }
}

/**
 * The refusal a connection to `host` gets unless it proves to be loopback, or `undefined` when
 * the guard lets it go whatever its address.
 */
function refusalFor(host: string, guard: Guard): RefusalKind | undefined {
  // A provider's host is refused even when allowed: its calls replay from cassettes.
  if (isProviderHost(host, guard.providers)) return { kind: 'provider', host }
  if (isHostIn(host, guard.allowed)) return undefined
  if (isHostIn(host, TELEMETRY_HOSTS)) return { kind: 'telemetry', host, target: host }
  return guard.everything ? { kind: 'other', host } : undefined
}

function loopbackOnly(lookup: Lookup, what: RefusalKind): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family)
      const addresses = Array.isArray(address)
        ? address.map((entry: { address: string }) => entry.address)
        : [String(address)]
      if (addresses.some((entry) => !LOOPBACK.test(entry))) {
        return callback(refuseConnection(what), undefined)
      }
      return callback(null, address, family)
    })
}
