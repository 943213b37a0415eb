// Refuses any socket connection outside loopback, in the process that loads it. Every test file
// loads it (through hermetic.ts); child processes that must stay offline preload it with
// NODE_OPTIONS="--import <this file>".
import net from 'node:net'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]
  const options = typeof first === 'object' && first !== null ? first : undefined
  const host = options
    ? options.path
      ? 'localhost'
      : (options.host ?? 'localhost')
    : typeof args[1] === 'string'
      ? args[1]
      : 'localhost'
  if (typeof host === 'string' && !LOOPBACK.test(host)) {
    throw new Error(
      `A test tried to connect to "${host}". Tests may only reach loopback addresses.`,
    )
  }
  return connect.apply(this, args)
}
