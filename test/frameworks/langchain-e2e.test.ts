// End to end (issue 29, item 6): a project whose agents use the real `@langchain/openai` and a
// LangGraph ReAct agent, asserted with toHaveCalledTool and toSatisfyRubric on the LangChain values
// as they are (an AIMessage, a streamed AIMessageChunk, a graph state and its JSON), records against
// a fake Chat Completions server on loopback, then replays under CI=true with the server stopped:
// tokens in the summary's Agents line, no key in any cassette.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, filesUnder } from '../cassettes/support'
import { keywordJudge } from '../support/keyword-judge'
import { loopbackGuardOption, runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

const KEY = 'sk-proj-langchainFixtureKey0123456789abcdefABCDEF'
const servers: FakeOpenAI[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

test('a LangChain project records, then replays offline under CI=true with tokens in the summary and no key in any cassette', async () => {
  const server = await startFakeOpenAI({
    reply: (request) => {
      if (request.body.model === 'gpt-judge') return keywordJudge(request)
      const sent = JSON.stringify(request.body.messages)
      if (request.body.tools === undefined || sent.includes('ticket T1: open')) {
        return 'Ticket T1 is open.'
      }
      return fakeReply.text('', {
        toolCalls: [{ id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' }],
      })
    },
  })
  servers.push(server)
  const dir = join(tempDir('rubricate-langchain-'), 'cassettes')
  const env = {
    FAKE_OPENAI_URL: server.baseURL,
    OPENAI_API_KEY: KEY,
    FIXTURE_CASSETTES: dir,
    NODE_OPTIONS: loopbackGuardOption,
  }

  const recorded = await runVitest('langchain-agents', [], { env })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(recorded.stdout).toContain('Tests  3 passed (3)')
  expect(recorded.stdout).toMatch(
    /Agents {2}4 calls: 0 replayed, 4 live \(all recorded into cassettes\) · tokens [\d,]+ live, 0 replayed/,
  )
  const agentCalls = server.requests.filter((request) => request.body.model === 'gpt-agent')
  expect(agentCalls.map((request) => request.body.stream === true)).toEqual([
    false,
    true,
    false,
    false,
  ])
  const entries = await entriesUnder(dir)
  const models = entries.map((entry) => entry.request.body.model)
  expect(models.filter((model) => model === 'gpt-agent')).toHaveLength(4)
  // Four judge calls, two of them the same request from two tests (the streamed reply and the
  // stored state's, judged without an input): each test records its own, as a reply is served
  // only to the test that recorded it.
  expect(recorded.stdout).toMatch(/Judge {2}4 calls: 0 replayed, 4 live/)
  expect(models.filter((model) => model === 'gpt-judge')).toHaveLength(4)
  const files = await filesUnder(dir)
  const text = (await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))).join('')
  expect(text).not.toContain(KEY)
  expect(text).toContain('"streamedText": "Ticket T1 is open."')
  expect((await verifyCassettes(dir)).problems).toEqual([])
  const liveTokens = /Agents .* tokens ([\d,]+) live/.exec(recorded.stdout)?.[1]

  await Promise.all(servers.splice(0).map((stopped) => stopped.close()))
  const replayed = await runVitest('langchain-agents', [], { env, ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Tests  3 passed (3)')
  expect(replayed.stdout).toMatch(/Judge {2}4 calls: 4 replayed, 0 live/)
  expect(replayed.stdout).toContain(
    `Agents  4 calls: 4 replayed, 0 live · tokens 0 live, ${liveTokens} replayed`,
  )
}, 180_000)
