// The seam between msw 2 and msw 3 (src/cassettes/agents/msw-compat.ts), run against whichever major is
// installed: the Node 20 lane has msw 2, the Node 22 lanes msw 3 and msw 2.
import { createRequire } from 'node:module'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, expect, test, vi } from 'vitest'
import {
  acceptsPredicates,
  isMswActive,
  listenOptions,
  UrlPredicate,
} from '../../src/cassettes/agents/msw-compat'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { listen } from './support'

const mswVersion: string = createRequire(import.meta.url)('msw/package.json').version
const mswMajor = Number(mswVersion.split('.')[0])

// One server for the whole file, listened to again with other options: msw 3 may let requests
// through after a server is closed and a new one started in the same process.
const server = setupServer(http.get('*/handled', () => HttpResponse.text('mocked')))
let fake: FakeOpenAI | undefined
let listening = false
// msw 3 throws when a server that is not listening is closed.
const close = () => {
  if (listening) server.close()
  listening = false
}
const relisten = (options: object) => {
  close()
  listen(server, options)
  listening = true
}

afterEach(async () => {
  vi.restoreAllMocks()
  close()
  await fake?.close()
  fake = undefined
})
afterAll(close)

async function unhandledUrl(): Promise<string> {
  fake = await startFakeOpenAI({ reply: fakeReply.raw({ body: { from: 'server' } }) })
  return `${fake.url}/unhandled`
}

test('the installed msw is a major the seam knows', () => {
  expect([2, 3]).toContain(mswMajor)
})

test("'bypass' lets an unhandled request reach its server, without a warning", async () => {
  const warn = vi.spyOn(console, 'warn')
  const error = vi.spyOn(console, 'error')
  relisten(listenOptions('bypass'))
  const url = await unhandledUrl()
  expect(await (await fetch(url)).json()).toEqual({ from: 'server' })
  expect(fake?.requests).toHaveLength(1)
  expect([...warn.mock.calls, ...error.mock.calls]).toEqual([])
})

test("'error' stops an unhandled request before it reaches its server, and handled ones still answer", async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  relisten(listenOptions('error'))
  const url = await unhandledUrl()
  await expect(fetch(url)).rejects.toThrow()
  expect(fake?.requests).toEqual([])
  expect(await (await fetch(`${fake?.url}/handled`)).text()).toBe('mocked')
})

test("a callback gets each unhandled request, and print.error() prints msw's message about it", async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const seen: string[] = []
  relisten(
    listenOptions((request, print) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`)
      if (request.method === 'POST') print.error()
    }),
  )
  const url = await unhandledUrl()
  expect((await fetch(url)).status).toBe(200)
  expect(error).not.toHaveBeenCalled()
  // On msw 2.15 and msw 3 the callback's print functions only print, and the request goes on;
  // msw 2.10 (the lowest the peer range allows) also stops it, as its own 'error' strategy does.
  const post = fetch(url, { method: 'POST', body: 'x' })
  if (mswVersion.startsWith('2.10.')) await expect(post).rejects.toThrow()
  else expect((await post).status).toBe(200)
  expect(seen).toEqual(['GET /unhandled', 'POST /unhandled'])
  expect(error).toHaveBeenCalledTimes(1)
  expect(String(error.mock.calls[0]?.[0])).toContain(`POST ${url}`)
})

test("a user's own msw server counts as intercepting while it listens, and not after close()", () => {
  expect(isMswActive()).toBe(false)
  relisten(listenOptions('bypass'))
  expect(isMswActive()).toBe(true)
  close()
  expect(isMswActive()).toBe(false)
})

test('msw takes a predicate path from 2.11 on; older versions get the RegExp path', () => {
  expect(['2.0.8', '2.10.0', '2.10.5'].map(acceptsPredicates)).toEqual([false, false, false])
  expect(['2.11.0', '2.15.0', '3.0.5'].map(acceptsPredicates)).toEqual([true, true, true])
})

// msw 3 has predicates; the RegExp path is what msw 2.10 and older get, checked on any msw 2.
test.runIf(mswMajor === 2)(
  'a UrlPredicate path answers the URLs its function accepts, read at each request; the others stay unhandled',
  async () => {
    const seen: string[] = []
    let accepted = '/v1/chat/completions'
    server.use(
      http.post(
        new UrlPredicate((href) => {
          seen.push(href)
          return href.endsWith(accepted)
        }) as unknown as string,
        () => HttpResponse.text('predicate'),
      ),
    )
    const unhandled: string[] = []
    relisten(listenOptions((request) => unhandled.push(new URL(request.url).pathname)))
    fake = await startFakeOpenAI({ reply: fakeReply.raw({ body: { from: 'server' } }) })
    const post = (path: string) =>
      fetch(`${fake?.url}${path}?q=1`, { method: 'POST', body: '{}' }).then((r) => r.text())
    expect(await post('/v1/chat/completions')).toBe('predicate')
    expect(await post('/v1/other')).toBe('{"from":"server"}')
    accepted = '/v1/other'
    expect(await post('/v1/other')).toBe('predicate')
    expect(unhandled).toEqual(['/v1/other'])
    // The URL without its query string, as a RegExp path is matched.
    expect(seen[0]).toBe(`${fake.url}/v1/chat/completions`)
    server.resetHandlers()
  },
)
