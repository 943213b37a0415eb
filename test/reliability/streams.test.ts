// Group 11: streamed replies. A model stream that never ends used to keep afterAll waiting for
// its recording until the hook timed out ("Hook timed out", nothing else); the test's end now ends
// the recording, and the file fails saying which stream and why. And a huge recorded stream used
// to replay one queued piece per event, which Node's stream queues dequeue in quadratic time
// (200,000 events: about 20 s, mostly after the test had finished).
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { messages } from '../../src/messages'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder, useCassetteFolder } from '../cassettes/support'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'

const session = startCassetteServer()
const folder = useCassetteFolder()
let fake: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await fake?.close()
  fake = undefined
})
afterAll(() => stopCassetteServer())

const EVENTS = 100_000

describe('11. Streams', () => {
  test('a model stream that never ends is ended with its test: the file fails naming the stream, not with a hook timeout', async () => {
    fake = await startFakeOpenAI({
      reply: fakeReply.text('once upon a time', { stallAfterChunks: 3 }),
    })
    const dir = await copyFixture('stalled-stream')
    try {
      const cassettes = join(dir, '__cassettes__')
      const run = await runVitest(dir, [], {
        env: { FAKE_OPENAI_URL: fake.baseURL, FIXTURE_CASSETTES: cassettes },
      })
      const output = run.stdout + run.stderr
      expect(run.exitCode, output).toBe(1)
      expect(output).not.toContain('Hook timed out')
      const expected = messages.streamOutlivedTest(
        `POST ${fake.baseURL}/chat/completions`,
        'stalled.test.ts > the agent takes the first words of a stream that never ends',
      )
      expect(output.replace(/\s+/g, ' ')).toContain(expected.replace(/\s+/g, ' '))
      // A stream cut short is never recorded.
      expect(await filesUnder(cassettes)).toEqual([])
    } finally {
      await removeCopy(dir)
    }
  })

  test(`a ${EVENTS.toLocaleString('en')}-event stream replays in time linear in its size, in a few hundred pieces`, async () => {
    configureRubricate({ cassettes: { mode: 'record' } })
    fake = await startFakeOpenAI({ reply: fakeReply.text('w0 w1', { chunks: ['w0 ', 'w1'] }) })
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 })
    const ask = {
      model: 'gpt-agent',
      messages: [{ role: 'user' as const, content: 'a long story' }],
      stream: true as const,
    }
    for await (const _ of await client.chat.completions.create(ask)) {
      // read to the end: recorded
    }
    await session.flush()
    // The recorded entry, grown to a huge stream (the key is the request's, so it still matches).
    const [entry] = await entriesUnder(folder.dir)
    const [first, word, , ...tail] = entry.response.sse as { t: number; chunk: string }[]
    entry.response.sse = [
      first,
      ...Array.from({ length: EVENTS }, (_, i) => ({ t: i, chunk: word?.chunk ?? '' })),
      ...tail,
    ]
    await new CassetteStore(folder.dir).write(entry)
    configureRubricate({ cassettes: { mode: 'replay' } })

    const started = performance.now()
    const response = await fetch(`${fake.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask),
    })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let pieces = 0
    let text = ''
    const decoder = new TextDecoder()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      pieces++
      text += decoder.decode(value, { stream: true })
    }
    // msw's clone of the reply is released after the read: give it its turn.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const elapsed = performance.now() - started
    expect(text.split('\n\n').filter((event) => event.includes('"w0 "'))).toHaveLength(EVENTS)
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(pieces).toBeLessThan(500)
    // One piece per event took 5 to 20 s on this machine; coalesced, well under one.
    expect(elapsed).toBeLessThan(4000)
    expect(fake.requests).toHaveLength(1)
  })
})
