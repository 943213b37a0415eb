import net from 'node:net'
import { expect, test } from 'vitest'

test('a connection to an address outside loopback is refused before it leaves the machine', async () => {
  await expect(fetch('http://192.0.2.1/')).rejects.toThrow()
  const error = await fetch('http://192.0.2.1/').catch((e: Error) => e)
  expect(String((error as Error).cause)).toContain('Tests may only reach loopback addresses')
})

test('a connection with its own lookup goes on only when every address it gives is loopback', async () => {
  const server = net.createServer((socket) => socket.end('hello'))
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as net.AddressInfo
  const lookupGiving =
    (address: string): net.LookupFunction =>
    (_hostname, options, callback) =>
      process.nextTick(() => {
        const answer = callback as (...a: unknown[]) => void
        // As Node's lookup contract says (and msw 3's lookup does): a list when `all` is set.
        if (options.all) answer(null, [{ address, family: 4 }])
        else answer(null, address, 4)
      })
  const read = (lookup: net.LookupFunction) =>
    new Promise<string>((done, fail) => {
      const socket = net.connect({ host: 'mocked.example', port, lookup })
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('end', () => done(text))
      socket.on('error', fail)
    })
  try {
    expect(await read(lookupGiving('127.0.0.1'))).toBe('hello')
    await expect(read(lookupGiving('192.0.2.1'))).rejects.toThrow(
      'A test tried to connect to "mocked.example". Tests may only reach loopback addresses.',
    )
  } finally {
    server.close()
  }
})
