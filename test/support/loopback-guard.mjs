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

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const normalised = Array.isArray(args[0])
  const first = normalised ? args[0][0] : args[0]
  const options = typeof first === 'object' && first !== null ? first : undefined
  const host = options
    ? options.path
      ? 'localhost'
      : (options.host ?? 'localhost')
    : typeof args[1] === 'string'
      ? args[1]
      : 'localhost'
  if (typeof host === 'string' && aliases.has(host)) {
    if (options) {
      const aliased = { ...options, host: '127.0.0.1' }
      if (normalised) args[0][0] = aliased
      else args[0] = aliased
    } else args[1] = '127.0.0.1'
    return connect.apply(this, args)
  }
  if (typeof host === 'string' && !LOOPBACK.test(host)) {
    if (log) appendFileSync(log, `${host}\n`)
    // msw 3 connects the socket of a mocked request too, with a lookup of its own that answers
    // loopback: the request never leaves the process. A connection with its own lookup goes on
    // when every address that lookup gives is loopback.
    if (typeof options?.lookup !== 'function') {
      // Failed as a refused connection fails, on a later tick: msw 3 opens the real socket of a
      // request it lets through inside a promise of its own, where a throw hangs the request.
      const error = refusal(host)
      process.nextTick(() => this.destroy(error))
      return this
    }
    const guarded = { ...options, lookup: loopbackOnly(options.lookup, host) }
    // In place: net marks its normalised array, and a copy would be normalised again.
    if (normalised) args[0][0] = guarded
    else args[0] = guarded
  }
  return connect.apply(this, args)
}

function loopbackOnly(lookup, host) {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error)
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address]
      if (addresses.some((entry) => !LOOPBACK.test(entry))) return callback(refusal(host))
      return callback(null, address, family)
    })
}
