// A test is served only its own replies (issue 35, item 3; issue 39, item 4): the n-th request of
// a test gets that test's n-th recorded reply or a miss, never another test's, whatever the
// concurrency, the hooks, repeatReplies, the Vitest projects or the order files are listed in. Two
// tests may make one request; each is answered by what it recorded itself. Recorded against
// loopback servers and replayed with them closed or counting, through the real SDKs and fixture
// projects run as a user runs them.

import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { tool as aiTool, generateText, stepCountIs } from 'ai'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { rubricate } from '../../reporters/plugin'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { runAsTest } from '../../src/runtime/call-context'
import { currentRuntime } from '../../src/runtime/runtime'
import { startFakeOpenAI } from '../../src/testing'
import { filesUnder, useCassetteFolder } from '../cassettes/support'
import {
  type FakeFunctionCall,
  type FakeStatefulOpenAI,
  startFakeStatefulOpenAI,
} from '../support/fake-stateful-openai'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { judgeRubric, judgeServer, PASSING_VERDICT, SPLIT_VERDICT } from './support'

const folder = useCassetteFolder()
const cassetteFetch = createCassetteFetch()
let servers: { close(): Promise<void> }[] = []

afterEach(async () => {
  for (const server of servers) await server.close()
  servers = []
  currentRuntime().session.takeUsage()
  currentRuntime().session.takeErrors()
})

const inTest = <T>(name: string, fn: () => Promise<T>): Promise<T> =>
  runAsTest({ identity: { file: join(folder.dir, '..', 'own.test.ts'), name } }, undefined, fn)

async function call(url: string, method = 'GET', body?: unknown): Promise<any> {
  const response = await cassetteFetch(url, {
    method,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-0123456789' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`)
  return JSON.parse(text)
}

/** A server whose every reply to a chat completion says how many requests came before it. */
async function countingServer() {
  let n = 0
  const server = await startFakeOpenAI({ reply: () => `reply ${++n}` })
  servers.push(server)
  return server
}

const ask = (baseURL: string) =>
  call(`${baseURL}/chat/completions`, 'POST', {
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Poll the job' }],
  }).then((json) => json.choices[0].message.content as string)

const outcome = (run: Promise<string>): Promise<string> =>
  run.then(
    (text) => text,
    (error: Error) => (error.message.includes('Cassette miss') ? 'miss' : error.message),
  )

describe("18. A test's own replies", () => {
  test("a test that sends a request more often than it recorded gets a miss, not another test's later replies, with repeatReplies its own last reply", async () => {
    configureRubricate({ cassettes: { mode: 'record' } })
    const server = await countingServer()
    const once = await inTest('polls once', () => ask(server.baseURL))
    const thrice = await inTest('polls three times', async () => [
      await ask(server.baseURL),
      await ask(server.baseURL),
      await ask(server.baseURL),
    ])
    expect([once, thrice]).toEqual(['reply 1', ['reply 2', 'reply 3', 'reply 4']])
    configureRubricate({ cassettes: { mode: 'replay' } })
    const twice = () =>
      inTest('polls once', async () => [
        await outcome(ask(server.baseURL)),
        await outcome(ask(server.baseURL)),
      ])
    expect(await twice()).toEqual(['reply 1', 'miss'])
    configureRubricate({ cassettes: { mode: 'replay', repeatReplies: true } })
    expect(await twice()).toEqual(['reply 1', 'reply 1'])
    expect(server.requests).toHaveLength(4)
  })

  test('concurrent tests that make one request keep their own replies, and a test with no entry of its own is a miss in replay and live in auto', async () => {
    configureRubricate({ cassettes: { mode: 'record' } })
    const server = await countingServer()
    const both = await Promise.all([
      inTest('first', () => ask(server.baseURL)),
      inTest('second', () => ask(server.baseURL)),
    ])
    expect([...both].sort()).toEqual(['reply 1', 'reply 2'])
    expect(await filesUnder(folder.dir)).toHaveLength(2)
    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await Promise.all([
      inTest('first', () => ask(server.baseURL)),
      inTest('second', () => ask(server.baseURL)),
      inTest('third', () => outcome(ask(server.baseURL))),
    ])
    expect(replayed).toEqual([...both, 'miss'])
    configureRubricate({ cassettes: { mode: 'auto' } })
    expect(await inTest('third', () => ask(server.baseURL))).toBe('reply 3')
  })

  test("a re-record against a server of sequential ids fetches and records each test's own response: id aliases never chain", async () => {
    const answer = (body: Record<string, unknown>) => `plan for ${String(body.input)}`
    const start = async (skip: number) => {
      const server = await startFakeStatefulOpenAI({ tag: 'seq', answer })
      servers.push(server)
      // Responses made before the suite's: the ids it is given next are the stored ones, moved on.
      for (let i = 0; i < skip; i++) {
        await fetch(`${server.baseURL}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-test', input: 'warm up' }),
        })
      }
      return server
    }
    const create = (server: FakeStatefulOpenAI, input: string) =>
      call(`${server.baseURL}/responses`, 'POST', { model: 'gpt-test', input })
    const read = (server: FakeStatefulOpenAI, id: string) =>
      call(`${server.baseURL}/responses/${id}`).then((json) => json.output[0].content[0].text)
    // Test a creates its response, test b creates its own, then test a reads a's back.
    const suite = async (server: FakeStatefulOpenAI) => {
      const a = await inTest('a', () => create(server, 'a'))
      await inTest('b', () => create(server, 'b'))
      return inTest('a reads', () => read(server, a.id))
    }
    configureRubricate({ cassettes: { mode: 'record' } })
    expect(await suite(await start(0))).toBe('plan for a')
    const again = await start(1)
    expect(await suite(again)).toBe('plan for a')
    // a's stored id was turned into a's live id, once: not on into b's.
    expect(again.requests.at(-1)).toBe('GET /v1/responses/resp_seq_0003')
    configureRubricate({ cassettes: { mode: 'replay' } })
    expect(await suite(again)).toBe('plan for a')
  })

  test("a match pattern's GET to a second host is a miss, not the first host's recording", async () => {
    let n = 0
    const jobs = createServer((_request, reply) => {
      reply.setHeader('content-type', 'application/json')
      reply.end(JSON.stringify({ status: `done ${++n}` }))
    })
    await new Promise<void>((resolve) => jobs.listen(0, '127.0.0.1', resolve))
    servers.push({ close: () => new Promise((resolve) => jobs.close(() => resolve())) })
    const port = (jobs.address() as AddressInfo).port
    const poll = (host: string) =>
      outcome(call(`http://${host}:${port}/jobs/42/status`).then((json) => json.status))
    const match = ['/jobs/42/status']
    configureRubricate({ cassettes: { mode: 'record', match } })
    expect(await inTest('polls', () => poll('127.0.0.1'))).toBe('done 1')
    configureRubricate({ cassettes: { mode: 'replay', match } })
    expect(await inTest('polls', () => poll('127.0.0.1'))).toBe('done 1')
    expect(await inTest('polls', () => poll('localhost'))).toBe('miss')
    // Said otherwise: one recording answers the path on any host.
    configureRubricate({ cassettes: { mode: 'record', match, matchAnyHost: true } })
    expect(await inTest('polls anywhere', () => poll('127.0.0.1'))).toBe('done 2')
    configureRubricate({ cassettes: { mode: 'replay', match, matchAnyHost: true } })
    expect(await inTest('polls anywhere', () => poll('localhost'))).toBe('done 2')
    expect(n).toBe(2)
  })

  test('a providerHosts entry written with a port or as a URL is refused with the form expected', () => {
    for (const [entry, problem] of [
      ['llm.internal.example.com:8443', 'has a port (or is an IPv6 address)'],
      ['https://llm.internal.example.com/v1', 'is a URL, not a host name'],
      ['llm.internal.example.com/v1', 'has a path'],
    ] as const) {
      expect(() => rubricate({ cassettes: { providerHosts: ['ok.example', entry] } })).toThrowError(
        `[rubricate] rubricate() plugin cassettes.providerHosts[1] is "${entry}", which ${problem}. An entry is a host name alone`,
      )
    }
    expect(() =>
      rubricate({ cassettes: { providerHosts: ['*.gw.example', '.corp.example', '10.0.0.7'] } }),
    ).not.toThrow()
  })

  test("a redact hook that masks a name serves neither test the other's verdict, recorded or replayed (the Alice/Bob attack)", async () => {
    const redact = (entry: any) => {
      for (const message of entry.request.body.messages) {
        message.content = message.content.replace(/Alice|Bob/g, '<name>')
      }
      return entry
    }
    configureRubricate({ cassettes: { mode: 'auto', redact } })
    const { server, judge } = await judgeServer((request) =>
      JSON.stringify(request.body).includes('Alice') ? PASSING_VERDICT : SPLIT_VERDICT,
    )
    const run = () =>
      Promise.all([
        inTest('greets Alice', () => judgeRubric(judge, 'Hello Alice! It is noon.')),
        inTest('greets Bob', () => judgeRubric(judge, 'Hello Bob! It is noon.')),
      ]).then((results) => results.map((result) => result.score))
    expect(await run()).toEqual([1, 0])
    configureRubricate({ cassettes: { mode: 'replay', redact } })
    expect(await run()).toEqual([1, 0])
    expect(server.requests).toHaveLength(2)
  })

  test('a miss whose changed path is a tool result says to make the tool deterministic or normalise it, not only to re-record', async () => {
    const server = await countingServer()
    const afterTool = (result: string) =>
      call(`${server.baseURL}/chat/completions`, 'POST', {
        model: 'gpt-test',
        messages: [
          { role: 'user', content: 'Roll a die' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'roll_die', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: result },
        ],
      })
    configureRubricate({ cassettes: { mode: 'record' } })
    await inTest('rolls', () => afterTool('You rolled 4'))
    configureRubricate({ cassettes: { mode: 'replay' } })
    const message = await inTest('rolls', () => afterTool('You rolled 6')).then(
      () => '',
      // The miss travels in the client's 400 as JSON text: its quotes are escaped.
      (error: Error) => error.message.replace(/\\"/g, '"'),
    )
    expect(message).toContain(
      'changed:  messages[2].content was "You rolled 4", is now "You rolled 6"',
    )
    expect(message).toContain(
      'tool:     what changed is the result of the tool "roll_die", fed back to the model',
    )
    expect(message).toContain('Make the tool deterministic in the test')
    expect(message).toContain('cassettes.normalize')
  })

  test('an unchanged AI SDK Responses chain re-recorded against a model that issues new ids leaves every cassette file as it was', async () => {
    const answer = (body: Record<string, unknown>): string | FakeFunctionCall => {
      const input = Array.isArray(body.input) ? (body.input as { type?: string }[]) : []
      return input.some((item) => item.type === 'function_call_output')
        ? 'It is sunny in Paris.'
        : { call: 'get_weather', arguments: { city: 'Paris' } }
    }
    const chain = (server: FakeStatefulOpenAI) => {
      const openai = createOpenAI({
        baseURL: server.baseURL,
        apiKey: 'sk-test-0123456789',
        fetch: cassetteFetch,
      })
      return inTest('asks the weather', () =>
        generateText({
          model: openai.responses('gpt-test'),
          prompt: 'What is the weather in Paris?',
          tools: {
            get_weather: aiTool({
              description: 'The weather in a city',
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => `Sunny in ${city}`,
            }),
          },
          stopWhen: stepCountIs(3),
        }),
      )
    }
    const snapshot = async () =>
      Promise.all(
        (await filesUnder(folder.dir)).map(async (file) => [
          file,
          await readFile(join(folder.dir, file), 'utf8'),
        ]),
      )
    configureRubricate({ cassettes: { mode: 'record' } })
    const first = await startFakeStatefulOpenAI({ tag: 'one', answer })
    servers.push(first)
    expect((await chain(first)).text).toBe('It is sunny in Paris.')
    const before = await snapshot()
    expect(before).toHaveLength(2)
    const second = await startFakeStatefulOpenAI({ tag: 'two', answer })
    servers.push(second)
    expect((await chain(second)).text).toBe('It is sunny in Paris.')
    expect(second.requests).toHaveLength(2)
    expect(await snapshot()).toEqual(before)
  })

  test("an Agents SDK suite whose normalize hook makes the SDK's call ids constant across two tests records, and replays on CI with no server", async () => {
    const dir = await copyFixture('reliability-own-agents')
    const cassettes = tempDir('rubricate-own-agents-')
    try {
      const answer = (body: Record<string, unknown>): string | FakeFunctionCall => {
        const input = Array.isArray(body.input) ? (body.input as { type?: string }[]) : []
        return input.some((item) => item.type === 'function_call_output')
          ? 'It is sunny in Paris.'
          : { call: 'get_weather', arguments: { city: 'Paris' } }
      }
      const server = await startFakeStatefulOpenAI({ tag: 'ag', answer })
      const env = { OPENAI_BASE_URL: server.baseURL, FIXTURE_CASSETTES: cassettes }
      const recorded = await runVitest(dir, [], { env })
      await server.close()
      expect(recorded.stderr).not.toContain('RUBRICATE_USAGE')
      expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
      // Each test made its two requests, under ids of its own, and recorded them itself.
      expect(server.requests).toHaveLength(4)
      expect(await filesUnder(cassettes)).toHaveLength(4)
      const replayed = await runVitest(dir, [], { env, ci: true })
      expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
      expect(replayed.stdout).toContain('2 passed')
    } finally {
      await removeCopy(dir)
    }
  }, 120_000)

  for (const [what, fixture] of [
    ['two Vitest projects, each with rubricate()', 'projects'],
    ['the setup file without the plugin', 'setup'],
  ] as const) {
    test(`with ${what}, two files whose judge requests normalise alike each get their own verdict, recorded and replayed`, async () => {
      const { server } = await judgeServer((request) =>
        JSON.stringify(request.body).includes('Alice') ? GREETS_BY_NAME : MISSES_THE_NAME,
      )
      const env = { FAKE_OPENAI_URL: server.baseURL, FIXTURE_CASSETTES: tempDir('rubricate-own-') }
      const root = `reliability-own-${fixture}`
      // One file after the other: the second finds the first's entry of its key on disk.
      for (const ci of [false, true]) {
        const run = await runVitest(root, ['--no-file-parallelism'], { env, ci })
        expect(run.exitCode).toBe(1)
        expect(run.stdout).toContain('Tests  1 failed | 1 passed (2)')
        expect(run.stdout).toMatch(/× .*greets Bob/)
        expect(run.stderr).toMatch(/greets Bob[^⎯]*It names no one/)
        expect(server.requests).toHaveLength(2)
      }
    }, 120_000)
  }
})

// One criterion, "Greets the user by name": met for Alice's greeting only.
const GREETS_BY_NAME = {
  criteria: { c1: { reasoning: 'It names Alice.', satisfied: true } },
  overallAssessment: 'Greets by name.',
}
const MISSES_THE_NAME = {
  criteria: { c1: { reasoning: 'It names no one the judge expected.', satisfied: false } },
  overallAssessment: 'Misses the name.',
}
