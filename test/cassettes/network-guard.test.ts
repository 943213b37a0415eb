// The replay guard (src/cassettes/agents/network-guard.ts) holds on whichever side of a socket
// interceptor it sits. The interceptor here is shaped like msw 3's (@mswjs/interceptors 0.45,
// net): it connects every socket again with its own normalised options (an empty `path`), gives a
// host it serves a lookup answering loopback (where msw would answer the request itself; a
// loopback server stands in for it here), and lets any other host through with the caller's
// options. msw 3 patches `net.Socket.prototype.connect` when its server listens: above the guard
// when rubricate's setup file runs first, below it when a setup file of the user's runs first.
// Behind them both, this repository's loopback guard (test/support/loopback-guard.mjs) refuses
// whatever rubricate let through, with a message of its own.
import net, { type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/cassettes/agents/network-guard'
import { currentRuntime } from '../../src/runtime/runtime'
import { useCassetteFolder } from './support'

type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket

interface Interceptor {
  /** Host names it answers itself. */
  served: Set<string>
  active: boolean
  connect: Connect
}

function socketInterceptor(inner: Connect): Interceptor {
  const self: Interceptor = { served: new Set(), active: false, connect: inner }
  self.connect = function intercepted(this: net.Socket, ...args: unknown[]): net.Socket {
    if (!self.active) return inner.apply(this, args)
    const given = (Array.isArray(args[0]) ? args[0] : args) as unknown[]
    const callback = given.find((arg) => typeof arg === 'function')
    const options =
      typeof given[0] === 'object' && given[0] !== null
        ? (given[0] as Record<string, unknown>)
        : { port: given[0], host: given[1] }
    if (self.served.has(String(options.host))) {
      const answer = (
        _name: string,
        dns: { all?: boolean | undefined },
        done: (...a: unknown[]) => void,
      ) =>
        process.nextTick(() =>
          dns.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4),
        )
      return inner.call(this, { ...options, path: '', port: servicePort, lookup: answer }, callback)
    }
    return inner.call(this, { ...options, path: '' }, callback)
  }
  return self
}

// Node's own connect (behind the repository's loopback guard), then an interceptor below the
// guard, the guard, and an interceptor above it.
const nodeConnect = net.Socket.prototype.connect as Connect
const below = socketInterceptor(nodeConnect)
net.Socket.prototype.connect = below.connect as typeof net.Socket.prototype.connect
installNetworkGuard(currentRuntime())
const above = socketInterceptor(net.Socket.prototype.connect as Connect)
net.Socket.prototype.connect = above.connect as typeof net.Socket.prototype.connect

useCassetteFolder({ cassettes: { mode: 'replay' } })
let service: net.Server
let servicePort = 0

beforeAll(async () => {
  service = net.createServer((socket) => socket.once('data', () => socket.end('pong')))
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  servicePort = (service.address() as AddressInfo).port
})
afterEach(() => {
  for (const interceptor of [below, above]) {
    interceptor.active = false
    interceptor.served.clear()
  }
})
afterAll(() => new Promise((resolve) => service.close(resolve)))

/** Connect with `open`, send a line, and give the reply or the error the socket failed with. */
function dial(open: (socket: net.Socket) => void): Promise<string | Error> {
  return new Promise((resolve) => {
    const socket = new net.Socket()
    socket.once('error', resolve)
    socket.once('data', (data) => {
      socket.destroy()
      resolve(String(data))
    })
    open(socket)
    socket.write('ping')
  })
}

function refusedByRubricate(outcome: string | Error, host: string): void {
  expect(outcome).toBeInstanceOf(Error)
  expect((outcome as Error & { code?: string }).code, (outcome as Error).message).toBe(
    'RUBRICATE_NETWORK_BLOCKED',
  )
  expect((outcome as Error).message).toContain(`"${host}"`)
}

test('a connection that an interceptor above the guard hands on with an empty path (msw 3 does) is refused, since Node reads only a non-empty path as a pipe', async () => {
  above.active = true
  const outcome = await dial((socket) => socket.connect(443, '192.0.2.1'))
  refusedByRubricate(outcome, '192.0.2.1')
})

test('with the guard above an interceptor, a host name the interceptor answers is served and one it lets through is refused before its DNS query', async () => {
  below.active = true
  below.served.add('api.example.test')
  expect(await dial((socket) => socket.connect(443, 'api.example.test'))).toBe('pong')
  refusedByRubricate(
    await dial((socket) => socket.connect({ host: 'elsewhere.example.test', port: 443 })),
    'elsewhere.example.test',
  )
})

test('a connection opened below the guard, with Node’s own connect, is refused where its TCP handle connects, naming its host', async () => {
  // An ordinary connection first: the guard takes the TCP handles' prototype from it.
  expect(await dial((socket) => socket.connect(servicePort, '127.0.0.1'))).toBe('pong')
  refusedByRubricate(
    await dial((socket) => nodeConnect.call(socket, { host: '192.0.2.1', port: 443 })),
    '192.0.2.1',
  )
})

test('a name with a lookup of its own goes on only when every address it gives is loopback', async () => {
  const lookup =
    (address: string): net.LookupFunction =>
    (_name, dns, done) =>
      process.nextTick(() =>
        dns.all
          ? (done as (error: null, all: object[]) => void)(null, [{ address, family: 4 }])
          : done(null, address, 4),
      )
  expect(
    await dial((socket) =>
      socket.connect({ host: 'db.example.test', port: servicePort, lookup: lookup('127.0.0.1') }),
    ),
  ).toBe('pong')
  refusedByRubricate(
    await dial((socket) =>
      socket.connect({ host: 'db.example.test', port: 443, lookup: lookup('192.0.2.1') }),
    ),
    'db.example.test',
  )
})
