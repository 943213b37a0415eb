import net from 'node:net'
import { getSystemErrorMap } from 'node:util'
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
 *
 * Judged where a connection goes out, not where a client asks for it: msw 3 wraps
 * `Socket.prototype.connect` too, above or below this guard depending on which setup file started
 * first, connects the socket of every request it sees with options of its own (a `path: ''`, a
 * lookup answering loopback) and a handle that never dials, and opens a second, real socket only
 * for a request it lets through (with the options it was given).
 * - A host name is judged before any DNS query, in the lookup: a refused name gets a lookup that
 *   refuses (or one that allows loopback answers only, when the caller brought its own lookup).
 *   msw 3's mock connection replaces the lookup; its real socket keeps the refusing one.
 * - An address is judged where the connection really opens: the TCP handle's `connect` and
 *   `connect6`, which msw 3 replaces on the handles it mocks. The handle's socket gives the name
 *   asked for (`allowHosts`, the message).
 * Installed once per worker by the setup file (the runtime's `installed.networkGuard`); the
 * configuration of the runtime it was installed with is read at each connection.
 */

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

type Lookup = (
  hostname: string,
  options: object,
  callback: (error: Error | null, address?: unknown, family?: number) => void,
) => void

/** The parts of Node's TCP handle (and of a TLS socket's, which wraps one) that the guard reads. */
interface Handle {
  _parent?: Handle | undefined
  connect?: HandleConnect | undefined
  connect6?: HandleConnect | undefined
}
type HandleConnect = (this: Handle, request: unknown, address: string, ...rest: unknown[]) => number

/** Guard `net.Socket.prototype.connect` and the TCP handles it connects. @internal */
export function installNetworkGuard(runtime: Runtime): void {
  const { installed } = runtimeState().process
  if (installed.networkGuard) return
  installed.networkGuard = true
  const connect = net.Socket.prototype.connect as (...a: unknown[]) => net.Socket
  net.Socket.prototype.connect = function rubricateNetworkGuard(
    this: net.Socket,
    ...args: unknown[]
  ): net.Socket {
    const guard = guarding(runtime)
    if (guard !== 'off') guardLookup(args, guard)
    const socket = connect.apply(this, args)
    if (!installed.networkHandles) guardHandles(this, runtime)
    return socket
  }
}

/**
 * Give a connection to a refused host name a lookup that refuses it (or lets only loopback
 * answers through), in place in `args`.
 */
function guardLookup(args: unknown[], guard: Guard): void {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const normalised = Array.isArray(args[0])
  const first = normalised ? (args[0] as unknown[])[0] : args[0]
  const options =
    typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined
  // A pipe, as Node reads it: msw 3 gives every TCP connection it mocks an empty `path`.
  if (options?.path) return
  const host = String(
    options ? (options.host ?? 'localhost') : typeof args[1] === 'string' ? args[1] : 'localhost',
  )
  // An address (and localhost) is judged at the handle, where msw 3's mocks never arrive.
  if (net.isIP(host) || host === 'localhost') return
  const refusal = refusalFor(host, guard)
  if (!refusal) return
  const own = options?.lookup
  const lookup =
    typeof own === 'function' ? loopbackOnly(own as Lookup, refusal) : refusing(refusal)
  if (!options) {
    // connect(port, host, callback): in the options form, which is the only one with a lookup.
    const callback = args.find((arg) => typeof arg === 'function')
    args.splice(0, args.length, { port: args[0], host, lookup }, ...(callback ? [callback] : []))
  } else if (normalised) {
    // In place: net marks its normalised array, and a copy would be normalised again.
    ;(args[0] as unknown[])[0] = { ...options, lookup }
  } else {
    args[0] = { ...options, lookup }
  }
}

/**
 * Guard the prototype of the TCP handle `socket` connects with (a TLS socket's handle wraps one),
 * once: every TCP connection that opens goes through its `connect` or `connect6`.
 */
function guardHandles(socket: net.Socket, runtime: Runtime): void {
  const own = (socket as unknown as { _handle?: Handle | null })._handle
  const handle = own?._parent ?? own
  if (handle?.constructor?.name !== 'TCP') return
  const prototype = Object.getPrototypeOf(handle) as Handle
  for (const method of ['connect', 'connect6'] as const) {
    const open = prototype[method]
    if (typeof open !== 'function') continue
    prototype[method] = function rubricateHandleGuard(this: Handle, request, address, ...rest) {
      const refusal = refusalAt(this, address, runtime)
      if (!refusal) return open.call(this, request, address, ...rest)
      const error = refuseConnection(refusal)
      const owner = ownerOf(this)
      if (!owner) return CONNECTION_REFUSED
      // Failed as a refused connection fails, on a later tick: the socket is still connecting.
      process.nextTick(() => owner.destroy(error))
      return 0
    }
  }
  runtimeState().process.installed.networkHandles = true
}

/** The refusal for a TCP connection about to open to `address`, or `undefined` to open it. */
function refusalAt(handle: Handle, address: string, runtime: Runtime): RefusalKind | undefined {
  if (LOOPBACK.test(address)) return undefined
  const guard = guarding(runtime)
  if (guard === 'off') return undefined
  const name = (ownerOf(handle) as { _host?: unknown } | undefined)?._host
  return refusalFor(typeof name === 'string' && name !== '' ? name : address, guard)
}

/** The socket a handle belongs to, under Node's own `owner_symbol`. */
function ownerOf(handle: Handle): net.Socket | undefined {
  const owner = Object.getOwnPropertySymbols(handle).find(
    (symbol) => symbol.description === 'owner_symbol',
  )
  const socket = owner && (handle as Record<symbol, unknown>)[owner]
  return socket instanceof net.Socket ? socket : undefined
}

/** libuv's code for a refused connection, for a handle whose socket is unknown. */
const CONNECTION_REFUSED: number =
  [...getSystemErrorMap()].find(([, [name]]) => name === 'ECONNREFUSED')?.[0] ?? -111

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

/** A lookup that refuses the connection, with no DNS query. */
function refusing(what: RefusalKind): Lookup {
  return (_hostname, _options, callback) => {
    const error = refuseConnection(what)
    process.nextTick(() => callback(error))
  }
}

/** The caller's lookup, its answers let through only when every address is loopback. */
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
