// Agents are sequences (issue 26): the n-th identical request of a test gets the n-th recorded
// reply, two tests with the same first request keep their own replies, a re-record against a
// server that issues new ids leaves chains that replay, and the stateful endpoints (a conversation
// and its items, GET included) are recorded by default. Recorded against a loopback server that
// speaks the Responses and Conversations APIs, replayed with it closed.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterEach, expect, onTestFinished, test } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { runAsTest } from '../../src/runtime/call-context'
import { currentRuntime } from '../../src/runtime/runtime'
import { fakeReply, startFakeOpenAI } from '../../src/testing'
import { type FakeStatefulOpenAI, startFakeStatefulOpenAI } from '../support/fake-stateful-openai'
import { filesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeStatefulOpenAI | undefined
// Where replay points the client once the server is closed: nothing listens there.
let baseURL = ''

afterEach(async () => {
  await server?.close()
  server = undefined
  currentRuntime().session.takeUsage()
  currentRuntime().session.takeErrors()
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
  const { error } = (await fourth.json()) as any
  expect(error.code).toBe('RUBRICATE_CASSETTE_MISS')
  // The nearest entry is one of the three, its body the same: the miss says it is the count that
  // differs, not that the key format changed.
  expect(error.message).toContain("the test's request number 4 with this exact body")
  expect(error.message).toMatch(
    /differs: +nothing in the body: the entry answers the test's request number [123], this is number 4/,
  )
  expect(error.message).not.toContain('key format changed')
  // Opted in, it is answered with the last recorded reply.
  configureRubricate({ cassettes: { mode: 'replay', repeatReplies: true } })
  const repeated = await inTest('candidates', async () => {
    await three()
    return textOf(await call('POST', '/responses', { model: 'gpt-test', input: 'Translate' }))
  })
  // The third request's reply: the identical requests of one test are numbered in the order made.
  expect(repeated).toBe(replayed[2])
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

test('two tests whose identical requests get the same reply each keep their own entry, and a third test is served neither', async () => {
  const ask = () => call('POST', '/responses', { model: 'gpt-test', input: 'Say hi' })
  configureRubricate({ cassettes: { mode: 'record' } })
  await serve({ tag: 'sh', answer: () => 'hi' })
  const first = await inTest('first', ask)
  const second = await inTest('second', ask)
  expect(server?.requests).toHaveLength(2)
  expect(await filesUnder(folder.dir)).toHaveLength(2)
  // Each test was given its own live reply: nothing of the first test's reached the second.
  expect(second.id).not.toBe(first.id)
  await server?.close()
  server = undefined
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await inTest('second', ask)).toEqual(second)
  const third = await inTest('third', ask).then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(String(third)).toContain('this exact request was recorded by')
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

test('a streamed tool call re-recorded against a server that issues new call ids still replays its chain', async () => {
  // Each first request is answered with a streamed tool call whose id is new on every call, as a
  // live model's is; the second request carries that id on, as the SDK's tool loop does.
  const fake = await startFakeOpenAI({
    reply: (request) =>
      (request.body as { messages: unknown[] }).messages.length === 1
        ? fakeReply.text('', {
            toolCalls: [
              {
                id: `call_issued_${request.index}_xyz`,
                name: 'weather',
                arguments: '{"city":"Oslo"}',
              },
            ],
          })
        : fakeReply.text('It is sunny in Oslo'),
  })
  onTestFinished(() => fake.close())
  const client = new OpenAI({
    baseURL: fake.baseURL,
    apiKey: 'sk-test',
    fetch: cassetteFetch,
    maxRetries: 0,
  })
  const tools = [
    { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object' } } },
  ]
  const chain = async () => {
    const user = { role: 'user' as const, content: 'Weather in Oslo?' }
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [user],
      tools,
      stream: true,
    })
    let id = ''
    for await (const chunk of stream) id ||= chunk.choices[0]?.delta.tool_calls?.[0]?.id ?? ''
    const answer = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [
        user,
        {
          role: 'assistant',
          tool_calls: [
            { id, type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: id, content: 'sunny' },
      ],
      tools,
    })
    return [id, answer.choices[0]?.message.content]
  }
  configureRubricate({ cassettes: { mode: 'record' } })
  const first = await inTest('tools', chain)
  expect(first).toEqual(['call_issued_0_xyz', 'It is sunny in Oslo'])
  // A stream's entry is written once the stream has ended, after the client read it: the
  // session's flush waits for that write (a listing before it may meet its temporary file).
  await currentRuntime().session.flush()
  const files = await filesUnder(folder.dir)
  expect(files).toHaveLength(2)
  // Re-recorded: the stream is unchanged but for its ids, so its stored entry stays; the client
  // read the live stream and carries the live id on, which the live server is sent as it is, and
  // the follow-up is keyed with the stored id, so it is the stored chain's entry that is kept.
  const again = await inTest('tools', chain)
  expect(again).toEqual(['call_issued_2_xyz', 'It is sunny in Oslo'])
  expect(JSON.stringify(fake.requests[3]?.body)).toContain('call_issued_2_xyz')
  await currentRuntime().session.flush()
  expect(await filesUnder(folder.dir)).toEqual(files)
  await fake.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await inTest('tools', chain)).toEqual(first)
})

test('the recipe for another stateful HTTP API: a job submitted and polled replays each polled state in order, also after a re-record against new ids', async () => {
  // A job queue on loopback: each server issues job ids of its own, and each poll of a job moves
  // it on one state; an id it did not issue is a 404, as it would be live.
  const startJobs = async (tag: string) => {
    const polls = new Map<string, number>()
    const requests: string[] = []
    const jobs = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`)
      request.resume().on('end', () => {
        const send = (status: number, json: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' })
          response.end(JSON.stringify(json))
        }
        if (request.method === 'POST' && request.url === '/v1/jobs') {
          const id = `job_${tag}_${String(polls.size + 1).padStart(4, '0')}`
          polls.set(id, 0)
          return send(200, { id, status: 'queued' })
        }
        const id = /^\/v1\/jobs\/([^/]+)$/.exec(request.url ?? '')?.[1] ?? ''
        const seen = polls.get(id)
        if (request.method !== 'GET' || seen === undefined) return send(404, { error: 'no job' })
        polls.set(id, seen + 1)
        return send(200, { id, status: ['running', 'running', 'done'][Math.min(seen, 2)] })
      })
    })
    await new Promise<void>((resolve) => jobs.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(jobs.address() as AddressInfo).port}`
    return { url, requests, close: () => new Promise((resolve) => jobs.close(resolve)) }
  }
  let jobsURL = ''
  const submitAndPoll = async () => {
    const json = async (response: Response) => {
      const body = (await response.json()) as { id: string; status: string }
      if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`)
      return body
    }
    const job = await json(await cassetteFetch(`${jobsURL}/v1/jobs`, { method: 'POST' }))
    const states = [job.status]
    while (states.at(-1) !== 'done') {
      states.push((await json(await cassetteFetch(`${jobsURL}/v1/jobs/${job.id}`))).status)
    }
    return { id: job.id, states }
  }
  // As docs/guide/sequences.md writes it.
  const match = ['/v1/jobs', /\/v1\/jobs\/[^/]+$/]
  configureRubricate({ cassettes: { mode: 'auto', match } })
  const first = await startJobs('aaa')
  jobsURL = first.url
  const recorded = await inTest('polls', submitAndPoll)
  expect(recorded.states).toEqual(['queued', 'running', 'running', 'done'])
  await first.close()
  const files = await filesUnder(folder.dir)
  expect(files).toHaveLength(4)

  configureRubricate({ cassettes: { mode: 'record', match } })
  const second = await startJobs('bbb')
  jobsURL = second.url
  expect(await inTest('polls', submitAndPoll)).toEqual(recorded)
  expect(second.requests.join('\n')).not.toContain('aaa')
  await second.close()
  expect(await filesUnder(folder.dir)).toEqual(files)

  configureRubricate({ cassettes: { mode: 'replay', match } })
  expect(await inTest('polls', submitAndPoll)).toEqual(recorded)
})
