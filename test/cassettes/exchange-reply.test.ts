// A recorded entry is the exchange's answer in two readings: the `Response` that replayResponse
// builds (what msw, a client's fetch and the judge's SDK get), and, for a whole JSON reply, its
// status, headers and text read from the entry without one (what a replayed judge call reads, so
// it never loads undici: ARCHITECTURE.md §10). Both must read the same for every entry.
import { expect, test } from 'vitest'
import { entryReply, isWholeReplay, replayResponse } from '../../src/cassettes/exchange/replay'
import type { CassetteEntry, CassetteResponse } from '../../src/cassettes/store/cassette-entry'

function entry(response: CassetteResponse): CassetteEntry {
  return {
    v: 2,
    key: 'k'.repeat(64),
    recordedAt: '2026-12-02T00:00:00.000Z',
    request: { method: 'POST', endpoint: 'chat/completions', body: {} },
    response,
  }
}

const HEADERS = ['content-type', 'Content-Type', 'x-request-id', 'content-length', 'x-missing']

const entries: [string, CassetteResponse][] = [
  [
    'a judge reply',
    {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { id: 'chatcmpl-1', choices: [{ message: { content: '{"score":1}' } }] },
    },
  ],
  ['a JSON reply with no headers', { status: 200, headers: {}, json: [1, 'two', null] }],
  [
    'headers written in another case, padded, and one name twice',
    {
      status: 201,
      headers: {
        'Content-Type': ' application/json; charset=utf-8\t',
        'x-request-id': 'req-1',
        'X-Request-Id': 'req-2',
      },
      json: { ok: true },
    },
  ],
  [
    'a JSON string with a byte-order mark and a lone surrogate',
    { status: 200, headers: { 'content-type': 'application/json' }, json: '\ufeffhi \ud800 there' },
  ],
  [
    'an error reply',
    {
      status: 400,
      headers: { 'content-type': 'application/json' },
      json: { error: { message: 'model not found' } },
    },
  ],
  ['a text reply', { status: 200, headers: { 'content-type': 'text/plain' }, text: '\ufeffplain' }],
  ['a binary reply', { status: 200, headers: {}, base64: Buffer.from('bytes').toString('base64') }],
  [
    'a stream',
    {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      sse: [
        { t: 0, chunk: 'data: {"a":1}\n\n' },
        { t: 1, chunk: 'data: [DONE]\n\n' },
      ],
    },
  ],
]

test.each(entries)('%s reads the same from the entry as from its Response', async (_, recorded) => {
  const reply = entryReply(entry(recorded))
  const response = replayResponse(entry(recorded))
  expect(reply.status).toBe(response.status)
  for (const name of HEADERS) expect(reply.header(name), name).toBe(response.headers.get(name))
  expect(await reply.text()).toBe(await response.text())
  // Its Response is replayResponse's, built once.
  expect(reply.response()).toBe(reply.response())
  expect(isWholeReplay(reply.response())).toBe(recorded.sse === undefined)
  const fresh = entryReply(entry(recorded)).response()
  expect(await fresh.text()).toBe(await replayResponse(entry(recorded)).text())
})

test('a JSON body under a status that takes none fails as its Response does', async () => {
  const recorded: CassetteResponse = { status: 204, headers: {}, json: { no: 'body' } }
  expect(() => replayResponse(entry(recorded))).toThrow(TypeError)
  await expect(entryReply(entry(recorded)).text()).rejects.toThrow(TypeError)
})
