// Runs Vitest on test/fixtures/autoevals: the README's autoevals example with the real package.
// Its Factuality calls the model with autoevals' own OpenAI client (on the Responses API, as it
// does for its default gpt-5 model) and answers by a forced tool call; Levenshtein is plain code.
// Recorded against the fake server, then replayed under CI=true: every scorer gives the same score,
// and no request reaches the server. (Not a closed port such as 9 for the replay: fetch refuses a
// port on its block list before msw 3 can see the request.)
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder } from '../cassettes/support'
import { copyFixture, loopbackGuardOption, removeCopy, runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let dir: string

beforeAll(async () => {
  // Factuality's choices: C, the submission holds the expert answer; D, it disagrees with it.
  server = await startFakeOpenAI({
    reply: (request) => {
      const asked = JSON.stringify(request.body.input ?? request.body.messages)
      const agrees = asked.includes('[Submission]: Paris')
      return fakeReply.text('', {
        toolCalls: [
          {
            id: 'call_1',
            name: 'select_choice',
            arguments: JSON.stringify({
              reasons: agrees ? 'It names Paris, as the expert does.' : 'It names another city.',
              choice: agrees ? 'C' : 'D',
            }),
          },
        ],
      })
    },
  })
  dir = await copyFixture('autoevals')
})

afterAll(async () => {
  await server.close()
  if (dir) await removeCopy(dir)
})

const run = (options: { ci?: boolean }) =>
  runVitest(dir, [], {
    ci: options.ci,
    env: {
      OPENAI_BASE_URL: server.baseURL,
      // autoevals builds its client at each call and needs a key to build it, on CI as well.
      OPENAI_API_KEY: 'sk-fixture-autoevals-0000',
      FIXTURE_CASSETTES: join(dir, '__cassettes__'),
      NODE_OPTIONS: loopbackGuardOption,
    },
  })

// Each scorer's line in the report, as the reporter renders it under the test.
const scorerLines = (stdout: string) =>
  stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('· scorer'))

test("autoevals' Factuality and Levenshtein run through adaptScorer, recorded, then replayed on CI", async () => {
  const recorded = await run({})
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(recorded.stdout).toContain('Tests  2 passed (2)')
  // One model call per Factuality run, on the Responses API, forced to the choice tool.
  expect(server.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses'])
  for (const request of server.requests) {
    expect(request.body.model).toBe('gpt-5-mini')
    expect(request.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['select_choice'])
  }
  const lines = scorerLines(recorded.stdout)
  expect(lines).toEqual([
    expect.stringMatching(/^· scorer "Factuality": score 1: It names Paris, as the expert does\./),
    '· scorer "Levenshtein": score 1',
    expect.stringMatching(/^· scorer "Factuality": score 0: It names another city\./),
    '· scorer "Levenshtein": score 0',
  ])
  const entries = await entriesUnder(join(dir, '__cassettes__'))
  expect(entries.map((entry) => entry.request.endpoint)).toEqual(['responses', 'responses'])
  // The key autoevals sent is redacted from what was written.
  expect(JSON.stringify(entries)).not.toContain('sk-fixture-autoevals-0000')

  server.clearRequests()
  const replayed = await run({ ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Tests  2 passed (2)')
  expect(replayed.stdout).toContain('2 replayed, 0 live')
  expect(scorerLines(replayed.stdout)).toEqual(lines)
  expect(server.requests).toEqual([])
})
