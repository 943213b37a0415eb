// Runs before every test file of this repository: the tests must not depend on the machine's
// environment, and must never reach an address outside loopback.
import net from 'node:net'

for (const name of Object.keys(process.env)) {
  if (
    name === 'CI' ||
    name.startsWith('RUBRICATE_') ||
    name.startsWith('OPENAI_') ||
    name === 'GITHUB_STEP_SUMMARY'
  ) {
    delete process.env[name]
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: any[]) {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]
  const options = typeof first === 'object' && first !== null ? first : undefined
  const host: unknown = options
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
  return (connect as (...a: any[]) => net.Socket).apply(this, args)
} as typeof connect

// The project's own tests reach the judge live (loopback fakes) unless a test chooses cassettes:
// under the default mode (`auto`) every judge test would record into __cassettes__/ at the
// repository root, and a repeated request would be replayed instead of reaching its fake server.
// An environment variable, because tests replace the plugin options and reset configureRubricate;
// the cassette tests remove it (test/cassettes/support.ts).
process.env.RUBRICATE_CASSETTES = 'off'
