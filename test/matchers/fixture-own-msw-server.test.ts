// Runs Vitest on test/fixtures/own-msw-server: a project whose setup file starts its own msw server
// (mocking its backend, letting the model host through) and never attaches rubricate to it, with an
// AI SDK agent on the Responses API (a tool call: two requests) and on streamed Chat Completions.
// Recorded against the fake server, then replayed under CI=true with no key: every agent call is
// served from the cassettes, none reaches the server.
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder } from '../cassettes/support'
import { keywordJudge } from '../support/keyword-judge'
import { copyFixture, loopbackGuardOption, removeCopy, runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let dir: string

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      if (request.body?.model !== 'gpt-agent') return keywordJudge(request)
      if (request.path.endsWith('/responses')) {
        const output = (request.body.input as { type?: string; output?: string }[]).find(
          (item) => item.type === 'function_call_output',
        )
        if (!output) {
          return fakeReply.text('', {
            toolCalls: [{ id: 'call_1', name: 'lookupOrder', arguments: '{"id":"42"}' }],
          })
        }
        const order = JSON.parse(String(output.output)) as { status: string }
        return `Order 42 is ${order.status}. We are sorry for the wait.`
      }
      return `Echo: ${request.body.messages.at(-1).content}`
    },
  })
  dir = await copyFixture('own-msw-server')
})

afterAll(async () => {
  await server.close()
  if (dir) await removeCopy(dir)
})

const run = (options: { ci?: boolean; env?: Record<string, string> }) =>
  runVitest(dir, [], {
    ci: options.ci,
    env: {
      FAKE_OPENAI_URL: server.baseURL,
      FIXTURE_CASSETTES: join(dir, '__cassettes__'),
      NODE_OPTIONS: loopbackGuardOption,
      ...options.env,
    },
  })

test("agent calls through a project's own msw server are recorded, then replayed on CI with no key", async () => {
  const recorded = await run({ env: { OPENAI_API_KEY: 'sk-fixture-agent-0000' } })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(recorded.stdout).toContain('Tests  2 passed (2)')
  const agentRequests = server.requests.filter((request) => request.body?.model === 'gpt-agent')
  expect(agentRequests.map((request) => request.path)).toEqual([
    '/v1/responses',
    '/v1/responses',
    '/v1/chat/completions',
  ])
  const endpoints = (await entriesUnder(join(dir, '__cassettes__')))
    .map((entry) => `${entry.request.body.model} ${entry.request.endpoint}`)
    .sort()
  expect(endpoints).toEqual([
    'gpt-agent chat/completions',
    'gpt-agent responses',
    'gpt-agent responses',
    'gpt-judge chat/completions',
    'gpt-judge chat/completions',
  ])

  server.clearRequests()
  const replayed = await run({ ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Tests  2 passed (2)')
  expect(server.requests).toEqual([])
})
