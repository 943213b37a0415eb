// Refuses any socket connection outside loopback, in the process that loads it. Every test file
// loads it (through hermetic.ts); child processes that must stay offline preload it with
// NODE_OPTIONS="--import <this file>".
import { appendFileSync } from 'node:fs'
import net from 'node:net'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/

// Host names that stand for loopback in this process (comma-separated in LOOPBACK_ALIASES), as
// /etc/hosts would make them: a CI service container's name, reached on 127.0.0.1.
const aliases = new Set((process.env.LOOPBACK_ALIASES ?? '').split(',').filter(Boolean))
// Every host this guard sees leave loopback is appended to the file LOOPBACK_GUARD_LOG names: a
// test that must dial nothing checks that it stays empty (this guard is the last layer before a
// real connection).
const log = process.env.LOOPBACK_GUARD_LOG

const refusal = (host) =>
  new Error(`A test tried to connect to "${host}". Tests may only reach loopback addresses.`)

// Two places, as rubricate's own guard (src/cassettes/agents/network-guard.ts): msw 3 connects
// the socket of every request it sees with a handle that never dials, and opens a real socket only
// for a request it lets through, so a host name is judged before its DNS query and an address
// where the connection really opens, the TCP handle's connect.
const connect = net.Socket.prototype.connect
let handlesGuarded = false
net.Socket.prototype.connect = function guardedConnect(...args) {
  guardLookup(args)
  const socket = connect.apply(this, args)
  if (!handlesGuarded) guardHandles(this)
  return socket
}

function guardLookup(args) {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const normalised = Array.isArray(args[0])
  const first = normalised ? args[0][0] : args[0]
  const options = typeof first === 'object' && first !== null ? first : undefined
  // A pipe, as Node reads it: msw 3 gives every TCP connection it mocks an empty `path`.
  if (options?.path) return
  const host = options
    ? (options.host ?? 'localhost')
    : typeof args[1] === 'string'
      ? args[1]
      : 'localhost'
  // An address is judged at the handle, where msw 3's mocks never arrive.
  if (typeof host !== 'string' || LOOPBACK.test(host) || net.isIP(host)) return
  let lookup
  if (typeof options?.lookup === 'function') lookup = loopbackOnly(options.lookup, host)
  else if (aliases.has(host)) lookup = (_name, dnsOptions, callback) => answer(dnsOptions, callback)
  else {
    // No DNS query for a host that is refused whatever it resolves to.
    lookup = (_name, _dnsOptions, callback) => {
      if (log) appendFileSync(log, `${host}\n`)
      process.nextTick(() => callback(refusal(host)))
    }
  }
  if (!options) {
    const callback = args.find((arg) => typeof arg === 'function')
    args.splice(0, args.length, { port: args[0], host, lookup }, ...(callback ? [callback] : []))
  } else if (normalised) {
    // In place: net marks its normalised array, and a copy would be normalised again.
    args[0][0] = { ...options, lookup }
  } else args[0] = { ...options, lookup }
}

/** An alias resolves to loopback, as /etc/hosts would resolve it. */
function answer(dnsOptions, callback) {
  process.nextTick(() =>
    dnsOptions?.all
      ? callback(null, [{ address: '127.0.0.1', family: 4 }])
      : callback(null, '127.0.0.1', 4),
  )
}

/** Refuse at the TCP handle (a TLS socket's wraps one) every connection that opens outside loopback. */
function guardHandles(socket) {
  const handle = socket._handle?._parent ?? socket._handle
  if (handle?.constructor?.name !== 'TCP') return
  const prototype = Object.getPrototypeOf(handle)
  for (const method of ['connect', 'connect6']) {
    const open = prototype[method]
    prototype[method] = function guardedHandleConnect(request, address, ...rest) {
      if (LOOPBACK.test(address)) return open.call(this, request, address, ...rest)
      const owner = ownerOf(this)
      const host = owner?._host || address
      if (log) appendFileSync(log, `${host}\n`)
      const error = refusal(host)
      if (!owner) return -111
      process.nextTick(() => owner.destroy(error))
      return 0
    }
  }
  handlesGuarded = true
}

function ownerOf(handle) {
  const owner = Object.getOwnPropertySymbols(handle).find(
    (symbol) => symbol.description === 'owner_symbol',
  )
  return owner ? handle[owner] : undefined
}

function loopbackOnly(lookup, host) {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error)
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address]
      if (addresses.some((entry) => !LOOPBACK.test(entry))) {
        if (log) appendFileSync(log, `${host}\n`)
        return callback(refusal(host))
      }
      return callback(null, address, family)
    })
}
