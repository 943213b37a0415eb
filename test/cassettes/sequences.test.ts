// Agents are sequences (issue 26): the n-th identical request of a test gets the n-th recorded
// reply, two tests with the same first request keep their own replies, a re-record against a
// server that issues new ids leaves chains that replay, and the stateful endpoints (a conversation
// and its items, GET included) are recorded by default. Recorded against a loopback server that
// speaks the Responses and Conversations APIs, replayed with it closed.

import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { cassetteSession } from '../../src/cassettes/run/cassette-session'
import { runAsTest } from '../../src/runtime/call-context'
import { type FakeStatefulOpenAI, startFakeStatefulOpenAI } from '../support/fake-stateful-openai'
import { filesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeStatefulOpenAI | undefined
// Where replay points the client once the server is closed: nothing listens there.
let baseURL = ''

afterEach(async () => {
  await server?.close()
  server = undefined
  cassetteSession().takeUsage()
  cassetteSession().takeErrors()
})

async function serve(options: Parameters<typeof startFakeStatefulOpenAI>[0]): Promise<void> {
  await server?.close()
  server = await startFakeStatefulOpenAI(options)
  baseURL = server.baseURL
}

const cassetteFetch = createCassetteFetch()

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await cassetteFetch(`${baseURL}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-0123456789' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = await response.json()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

const inTest = <T>(name: string, fn: () => Promise<T>): Promise<T> =>
  runAsTest({ identity: { file: join(folder.dir, '..', 'agent.test.ts'), name } }, undefined, fn)

const textOf = (response: any): string => response.output[0].content[0].text

test('a session that reads the same conversation twice gets each read as it was recorded', async () => {
  const session = async () => {
    const conversation = await call('POST', '/conversations', {})
    const before = await call('GET', `/conversations/${conversation.id}/items`)
    await call('POST', `/conversations/${conversation.id}/items`, {
      items: [{ type: 'message', role: 'user', content: 'hello' }],
    })
    const after = await call('GET', `/conversations/${conversation.id}/items`)
    return [before.data.length, after.data.length]
  }
  configureRubricate({ cassettes: { mode: 'auto' } })
  await serve({ tag: 'one' })
  expect(await inTest('session', session)).toEqual([0, 1])
  await server?.close()
  server = undefined
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await inTest('session', session)).toEqual([0, 1])
})

test('three identical requests made at once are each recorded, and replay their three replies', async () => {
  const three = () =>
    Promise.all(
      [1, 2, 3].map(() => call('POST', '/responses', { model: 'gpt-test', input: 'Translate' })),
    )
  configureRubricate({ cassettes: { mode: 'record' } })
  await serve({ tag: 'par', answer: (_, n) => `candidate ${n}`, delayMs: 20 })
  const recorded = (await inTest('candidates', three)).map(textOf)
  expect([...recorded].sort()).toEqual(['candidate 1', 'candidate 2', 'candidate 3'])
  expect(await filesUnder(folder.dir)).toHaveLength(3)
  await server?.close()
  server = undefined
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = (await inTest('candidates', three)).map(textOf)
  expect([...replayed].sort()).toEqual(['candidate 1', 'candidate 2', 'candidate 3'])
  // A fourth identical request was never recorded: a miss, not a repeat of the third.
  const fourth = await inTest('candidates', async () => {
    await three()
    return cassetteFetch(`${baseURL}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-test', input: 'Translate' }),
    })
  })
  expect(fourth.status).toBe(400)
  expect(((await fourth.json()) as any).error.code).toBe('RUBRICATE_CASSETTE_MISS')
  // Opted in, it is answered with the last recorded reply.
  configureRubricate({ cassettes: { mode: 'replay', repeatReplies: true } })
  const repeated = await inTest('candidates', async () => {
    await three()
    return textOf(await call('POST', '/responses', { model: 'gpt-test', input: 'Translate' }))
  })
  expect(recorded).toContain(repeated)
})

test('approve and reject tests that share a first request keep their own replies', async () => {
  const path = (decision: string) => async () => {
    const first = await call('POST', '/responses', { model: 'gpt-test', input: 'Refund order 7' })
    const second = await call('POST', '/responses', {
      model: 'gpt-test',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: textOf(first), output: decision }],
    })
    return [textOf(first), textOf(second)]
  }
  configureRubricate({ cassettes: { mode: 'record' } })
  // Each first request gets a new call id, as a live model would give.
  await serve({
    tag: 'ap',
    answer: (body, n) => (body.previous_response_id ? 'done' : `call_${n}`),
  })
  const approved = await inTest('approve', path('approved'))
  const rejected = await inTest('reject', path('rejected'))
  expect(approved[0]).not.toBe(rejected[0])
  await server?.close()
  server = undefined
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await inTest('approve', path('approved'))).toEqual(approved)
  expect(await inTest('reject', path('rejected'))).toEqual(rejected)
})

test('a previous_response_id chain re-recorded against a server that issues new ids still replays', async () => {
  const chain = async () => {
    const first = await call('POST', '/responses', { model: 'gpt-test', input: 'Plan a trip' })
    const second = await call('POST', '/responses', {
      model: 'gpt-test',
      previous_response_id: first.id,
      input: 'Make it shorter',
    })
    return [first.id, second.id, textOf(second)]
  }
  const answer = (body: Record<string, unknown>) =>
    body.previous_response_id ? 'shorter plan' : 'plan'
  configureRubricate({ cassettes: { mode: 'record' } })
  await serve({ tag: 'aaa', answer })
  const first = await inTest('chain', chain)
  const files = await filesUnder(folder.dir)
  // Re-recorded against a server that knows none of the stored ids and issues its own.
  await serve({ tag: 'bbb', answer })
  const again = await inTest('chain', chain)
  expect(server?.requests).toEqual(['POST /v1/responses', 'POST /v1/responses'])
  // The replies are unchanged but for their ids: the stored entries stay, and the client is
  // served them, stored ids and all.
  expect(again).toEqual(first)
  expect(await filesUnder(folder.dir)).toEqual(files)
  await server?.close()
  server = undefined
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await inTest('chain', chain)).toEqual(first)
})
