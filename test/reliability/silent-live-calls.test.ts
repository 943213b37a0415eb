import { createRequire } from 'node:module'
// Group 9: no model call goes live unnoticed. A project's own msw server, started after
// rubricate's and never attached, used to take every request (msw 2.12 and later: the last server
// to listen wins), so agent calls were neither recorded nor replayed and went to the network on
// CI. And a connection outside loopback in replay mode fails its test with the host and the fix,
// even when the code under test swallows the error.
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { listenOptions } from '../../src/cassettes/agents/msw-compat'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { messages } from '../../src/messages'
import { withCallContext } from '../../src/runtime/call-context'
import { currentRuntime } from '../../src/runtime/runtime'
import { onUndecided } from '../../src/runtime/undecided-hooks'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, listen, testIn, useCassetteFolder } from '../cassettes/support'
import { linked } from '../support/error-page'

// What the setup file does first; then the project's own setup file starts its server, mocking
// its backend and letting the model host through quietly.
const session = startCassetteServer()
const unhandled: string[] = []
const own = setupServer(
  http.get('https://api.backend.example/orders/:id', () =>
    HttpResponse.json({ status: 'shipped' }),
  ),
)
listen(
  own,
  listenOptions((request, print) => {
    unhandled.push(request.url)
    // Model hosts pass: the fake server, and a documentation address standing for a public one.
    if (!['127.0.0.1', '192.0.2.1'].includes(new URL(request.url).hostname)) print.error()
  }),
)

// msw 3 opens the real socket of a request it let through itself, and answers the client with a
// socket closed rather than with the refusal; the refusal still fails the file.
const ON_MSW_3 = (
  createRequire(import.meta.url)('msw/package.json') as { version: string }
).version.startsWith('3.')

const folder = useCassetteFolder()
// What the setup file hears of: a refused connection fails the test that opened it.
const refused: Error[] = []
const _stopListening = onUndecided((error) => refused.push(error))
let fake: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  refused.length = 0
  await fake?.close()
  fake = undefined
  unhandled.length = 0
})
let ownListening = true
afterAll(() => {
  if (ownListening) own.close()
  stopCassetteServer()
})

const ask = (content: string) => ({
  model: 'gpt-agent',
  messages: [{ role: 'user' as const, content }],
})

describe('9. Silent live calls', () => {
  test("agent calls that a project's own msw server lets through are recorded, and replayed without reaching the server", async () => {
    configureRubricate({ cassettes: { mode: 'auto' } })
    fake = await startFakeOpenAI({ reply: 'Order 42 is shipped.' })
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
    const order = await (await fetch('https://api.backend.example/orders/42')).json()
    expect(order).toEqual({ status: 'shipped' })
    const live = await client.chat.completions.create(ask('where is order 42?'))
    await session.flush()
    expect((await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint)).toEqual([
      'chat/completions',
    ])
    expect(fake.requests).toHaveLength(1)
    // CI: replay. The server still runs, to count what reaches it.
    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await client.chat.completions.create(ask('where is order 42?'))
    expect(replayed).toEqual(live)
    expect(fake.requests).toHaveLength(1)
    // A call with no cassette is a replay miss, not a live call.
    await expect(client.chat.completions.create(ask('never recorded'))).rejects.toMatchObject({
      status: 400,
      error: { code: 'RUBRICATE_CASSETTE_MISS' },
    })
    expect(fake.requests).toHaveLength(1)
    expect(session.misses()).toHaveLength(1)
  })

  test('by default, a connection outside loopback in replay mode is refused with the host and the fix, and a swallowed one fails its test', async () => {
    configureRubricate({ cassettes: { mode: 'replay' } })
    const test = testIn('calls a public default base URL', 'test/reliability/agent.test.ts')
    // A documentation address (TEST-NET-1): refused before any packet leaves.
    const swallowed = await withCallContext({ test }, () =>
      fetch('http://192.0.2.1/v1/health').then(
        () => undefined,
        (error: Error) => error,
      ),
    )
    const expected = linked(
      messages.networkBlocked(
        '192.0.2.1',
        `test/reliability/agent.test.ts > calls a public default base URL`,
      ),
      'network-blocked',
    )
    expect(swallowed).toBeInstanceOf(Error)
    if (!ON_MSW_3) expect((swallowed?.cause as Error | undefined)?.message).toBe(expected)
    expect(refused.map((error) => error.message)).toEqual([expected])
    expect(currentRuntime().session.errors()).toEqual([])
    expect(expected).toContain('attachRubricate(server)')
    // Loopback stays open (local fakes, databases), and so does everything outside replay mode.
    fake = await startFakeOpenAI({ reply: 'local' })
    expect((await fetch(`${fake.url}/v1/health`)).status).toBe(404)
    // Outside replay mode the guard stands aside: this repository's own loopback guard refuses.
    configureRubricate({ cassettes: { mode: 'auto' } })
    const recording = await fetch('http://192.0.2.1/v1/health').then(
      () => undefined,
      (error: Error) => error,
    )
    expect(recording).toBeInstanceOf(Error)
    if (!ON_MSW_3) {
      expect((recording?.cause as Error | undefined)?.message).toMatch(
        /Tests may only reach loopback/,
      )
    }
    expect(refused).toHaveLength(1)
  })
  test("after the project's own msw server stops, agent calls are still recorded and replayed", async () => {
    // msw 3: every server shares one interceptor source, so stopping the project's server stopped
    // rubricate's too, which still believed it listened, and calls went out unrecorded.
    own.close()
    ownListening = false
    configureRubricate({ cassettes: { mode: 'auto' } })
    fake = await startFakeOpenAI({ reply: 'Recorded after the stop.' })
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
    const live = await client.chat.completions.create(ask('after the stop'))
    await session.flush()
    expect((await entriesUnder(folder.dir)).map((entry) => entry.request.endpoint)).toEqual([
      'chat/completions',
    ])
    configureRubricate({ cassettes: { mode: 'replay' } })
    expect(await client.chat.completions.create(ask('after the stop'))).toEqual(live)
    expect(fake.requests).toHaveLength(1)
  })
})
