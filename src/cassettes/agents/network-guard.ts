import net from 'node:net'
import { testLabel } from '../../config/paths'
import { resolveConfig } from '../../config/resolve-config'
import { NetworkBlockedError } from '../../errors'
import { messages } from '../../messages'
import { runningTest } from '../../runtime/call-context'
import { stateSlot } from '../../runtime/state'
import { cassetteSession } from '../run/cassette-session'
import { isProviderHost } from '../store/model-endpoint'
import { isMswInstalled } from './msw-loader'
import { isRubricateLive } from './rubricate-live'

/**
 * In replay mode a connection to a known model provider's host (`cassettes.providerHosts` too) is
 * always refused before it opens: a model call that no cassette handler saw never reaches the
 * provider. `cassettes.blockNetwork` extends this to every connection outside loopback: it is
 * refused before it opens, and the refusal fails the test file even when the code under test swallows the error. A
 * replay needs no network, so such a connection is a model call rubricate never saw (a client that
 * bypasses msw, a server of the user's that rubricate is not attached to, a default public base
 * URL) or some other service the test depends on. Loopback stays open: local fakes and databases.
 * Installed once per worker by the setup file; the option is read at each connection.
 */

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/
const slot = stateSlot('cassette-network-guard', () => ({ installed: false }))

type Lookup = (
  hostname: string,
  options: object,
  callback: (error: Error | null, address: unknown, family?: number) => void,
) => void

/** Guard `net.Socket.prototype.connect` (TLS and HTTP clients all connect through it). @internal */
export function installNetworkGuard(): void {
  if (slot.installed) return
  slot.installed = true
  const connect = net.Socket.prototype.connect
  net.Socket.prototype.connect = function rubricateNetworkGuard(
    this: net.Socket,
    ...args: unknown[]
  ): net.Socket {
    const guard = guarding()
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
    const provider = isProviderHost(host, guard.providers)
    if (!provider && !guard.everything) {
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
    }
    if (net.isIP(host)) {
      if (!LOOPBACK.test(host)) return refuse(this, host, provider)
    } else if (host !== 'localhost') {
      // A name is allowed only when it resolves to loopback. msw 3 connects the socket of a mocked
      // request with a lookup of its own that answers loopback: that request never leaves.
      const lookup = options?.lookup
      if (typeof lookup !== 'function') return refuse(this, host, provider)
      const guarded = { ...options, lookup: loopbackOnly(lookup as Lookup, host, provider) }
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
function refuse(socket: net.Socket, host: string, provider = false): net.Socket {
  const error = refusal(host, provider)
  process.nextTick(() => socket.destroy(error))
  return socket
}

/**
 * What the guard refuses now: nothing outside replay mode and for rubricate's own live requests;
 * in replay mode the provider hosts (the extra ones are returned), and everything outside
 * loopback too with `blockNetwork`.
 */
function guarding(): 'off' | { providers: readonly string[]; everything: boolean } {
  if (isRubricateLive()) return 'off'
  try {
    const { cassettes } = resolveConfig()
    if (cassettes.mode !== 'replay') return 'off'
    return { providers: cassettes.providerHosts, everything: cassettes.blockNetwork }
  } catch {
    // An invalid configuration is reported where it is used; a connection is no place for it.
    return 'off'
  }
}

function loopbackOnly(lookup: Lookup, host: string, provider: boolean): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family)
      const addresses = Array.isArray(address)
        ? address.map((entry: { address: string }) => entry.address)
        : [String(address)]
      if (addresses.some((entry) => !LOOPBACK.test(entry))) {
        return callback(refusal(host, provider), undefined)
      }
      return callback(null, address, family)
    })
}

/** The refusal, also kept in the cassette session so that a swallowed one fails the file. */
function refusal(host: string, provider = false): Error {
  const test = runningTest()?.identity
  const label = test ? testLabel(test) : undefined
  const error = new NetworkBlockedError(
    provider
      ? messages.providerConnectionRefused(host, label, isMswInstalled())
      : messages.networkBlocked(host, label, isMswInstalled()),
  )
  const session = cassetteSession()
  // SDKs retry a failed connection: one error per test and host is enough.
  if (!session.errors().some((known) => known.message === error.message)) {
    session.recordError(error)
  }
  return error
}
