import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { z } from 'zod'
import { configureRubricate, createScorer, type ScorerResult } from '../../src'
import { rootCause } from '../../src/errors'
import { runJudgeCall } from '../../src/judge/judge-call'
import { parseJudgeInput } from '../../src/judge/judge-input'
import type { OpenAICompatibleJudge } from '../../src/records/records'
import { withCallContext } from '../../src/runtime/call-context'
import { setPluginConfig } from '../../src/runtime/runtime'
import { type FakeOpenAI, type FakeRequest, fakeReply, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { linked } from '../support/error-page'
import { entriesUnder, entryFilesUnder, testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const FILE = 'test/cassettes/judge-record-replay.test.ts'

function judgeReply(request: FakeRequest) {
  const prompt: string = request.body.messages.at(-1).content
  if (prompt.startsWith('List')) return { facts: ['Paris is in France'] }
  if (prompt.startsWith('Score')) return { score: 1 }
  return fakeReply.text('One fact, and it is right.')
}

async function score(
  judge: OpenAICompatibleJudge,
  output = 'Paris is in France',
  name = 'checks facts',
) {
  return withCallContext({ test: testIn(name, FILE) }, () =>
    createScorer({
      id: 'facts',
      description: 'Checks facts',
      judge: { model: judge, instructions: 'You check facts.' },
    })
      .analyze({
        description: 'List the facts',
        createPrompt: ({ run }) => `List the facts in: ${String(run.output)}`,
        outputSchema: z.object({ facts: z.array(z.string()) }),
      })
      .generateScore({
        description: 'Score them',
        createPrompt: ({ results }) =>
          `Score these facts: ${results.analyzeStepResult.facts.join('; ')}`,
      })
      .generateReason({
        description: 'Explain',
        createPrompt: ({ score }) => `Explain the score ${score}.`,
      })
      .run({ output, runId: 'r1' }),
  )
}

// A judge call under a prompt version, as the rubric scorer makes one: the version is the call's
// own option, never inherited from around it.
function judgeUnder(
  promptVersion: string,
  judge: OpenAICompatibleJudge,
  prompt: string,
  system = 'You check facts.',
) {
  return withCallContext({ test: testIn('checks facts', FILE) }, () =>
    runJudgeCall({
      judge: parseJudgeInput(judge),
      step: 'generateReason',
      system,
      prompt,
      promptVersion,
    }),
  )
}

const stable = (result: ScorerResult) => ({
  ...result,
  judgeCalls: result.judgeCalls.map(({ durationMs: _, ...call }) => call),
})

test('a run recorded against a live judge replays with the same result and no request reaching any server', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  const recorded = await score(judge)
  expect(server.requests).toHaveLength(3)
  expect(recorded.judgeCalls.map((call) => call.source)).toEqual([
    'recorded',
    'recorded',
    'recorded',
  ])
  expect(await entryFilesUnder(folder.dir)).toHaveLength(3)
  await server.close()

  const replayed = await score(judge)
  expect(replayed.judgeCalls.map((call) => call.source)).toEqual([
    'replayed',
    'replayed',
    'replayed',
  ])
  expect(replayed.judgeCalls.map((call) => call.cassetteKey)).toEqual(
    recorded.judgeCalls.map((call) => call.cassetteKey),
  )
  // Only where the reply came from differs: recorded calls sent a request live, replayed ones none.
  const withSource = (result: ScorerResult) =>
    stable(result).judgeCalls.map(({ source: _, liveRequestCount: __, ...call }) => call)
  expect(recorded.judgeCalls.map((call) => call.liveRequestCount)).toEqual([1, 1, 1])
  expect(replayed.judgeCalls.map((call) => call.liveRequestCount)).toEqual([0, 0, 0])
  expect({ ...replayed, judgeCalls: withSource(replayed) }).toEqual({
    ...recorded,
    judgeCalls: withSource(recorded),
  })
  expect(replayed.score).toBe(1)
  expect(replayed.reason).toBe('One fact, and it is right.')
})

test('each recorded entry names its test and stores the redacted request and the reply', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  await judgeUnder(
    '3',
    { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' },
    'Explain the score 1.',
  )
  const entries = await entriesUnder(folder.dir)
  const reason = entries.find((entry) =>
    entry.request.body.messages[1].content.startsWith('Explain'),
  )
  expect(reason).toEqual({
    v: 2,
    key: expect.stringMatching(/^[0-9a-f]{64}$/),
    promptVersion: '3',
    // Where it was recorded, without the key (sent as a header) or any query.
    baseURL: server.baseURL,
    recordedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    recordedBy: `${FILE} > checks facts`,
    request: {
      method: 'POST',
      endpoint: 'chat/completions',
      body: {
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'You check facts.' },
          { role: 'user', content: 'Explain the score 1.' },
        ],
      },
    },
    response: {
      // How long the reply took, as recorded: what a budget reads in replay.
      latencyMs: expect.any(Number),
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: expect.objectContaining({ object: 'chat.completion', model: 'gpt-test' }),
    },
  })
})

test('with CI=true and no mode set, a changed prompt fails with RUBRICATE_CASSETTE_MISS naming the test and the differing path, without a request', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  await score(judge)
  configureRubricate({ cassettes: { mode: undefined } })
  setPluginConfig({})
  process.env.CI = 'true'
  server.clearRequests()

  const error = rootCause(
    await rejectionOf(score(judge, 'Paris is in Germany', 'suite > checks "facts" $1')),
  )
  expect(server.requests).toHaveLength(0)
  const listed = (await entriesUnder(folder.dir)).find((entry) =>
    entry.request.body.messages[1].content.startsWith('List'),
  )
  const nearest = join(
    folder.dir,
    (await entryFilesUnder(folder.dir)).find((file) =>
      file.endsWith(`.${listed.key.slice(0, 12)}.json`),
    ) ?? '',
  )
  expect(error).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS', name: 'CassetteMissError' })
  expect(
    (error as Error).message,
  ).toBe(`[rubricate] Cassette miss: no recorded reply matches this judge call, and cassettes are in replay mode (CI is set), so no network call was made.
  test:     ${FILE} > suite > checks "facts" $1
  endpoint: chat/completions
  model:    gpt-test
  key:      ${(error as { key: string }).key}
  nearest:  ${nearest} (recorded by "${FILE} > checks facts")
  differs:  messages[1].content
  changed:  messages[1].content was "…e facts in: Paris is in France", is now "…e facts in: Paris is in Germany"
Record it with:
  RUBRICATE_CASSETTES=auto npx vitest run ${FILE} -t "suite checks \\"facts\\" \\\\\\$1"
then commit the new files in ${folder.dir}/.
Recording calls the model live: it needs its API key (OPENAI_API_KEY for an "openai/..." model) and its real base URL (OPENAI_BASE_URL, when it is not api.openai.com).
See https://rubricate.github.io/rubricate/errors/cassette-miss`)
})

test('a miss whose nearest entry was recorded with another prompt version says the prompt version changed', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  await judgeUnder('1', judge, 'Score these facts: Paris is in France')
  configureRubricate({ cassettes: { mode: 'replay' } })
  const error = await rejectionOf(
    judgeUnder('2', judge, 'Score these facts: Paris is in France', 'You check facts, v2.'),
  )
  const message = (rootCause(error) as Error).message
  expect(message).toContain('(set with configureRubricate)')
  expect(message).toContain('  differs:  messages[0].content\n')
  expect(message).toContain(
    `  prompt:   the judge's prompt version changed from "1" to "2" since the nearest entry was recorded, so every judge cassette needs a deliberate re-record: RUBRICATE_CASSETTES=record npx vitest run, then review the new verdicts.\n`,
  )
})

test('a miss whose nearest entry has no prompt version (an agent call, a scorer prompt) claims no prompt change', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  await score(judge)
  configureRubricate({ cassettes: { mode: 'replay' } })
  const error = await rejectionOf(
    judgeUnder('rubric-v1', judge, 'List the facts in: Rome is in Italy'),
  )
  const message = (rootCause(error) as Error).message
  expect(message).toContain('  differs:  messages[1].content\n')
  expect(message).not.toContain('prompt version')
})

test('one recording replays whatever the base URL or path prefix: OpenAI, OpenRouter and Azure style', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const recorded = await score({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-a' })
  const port = server.port
  await server.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  const openRouter = await score({
    model: 'gpt-test',
    baseURL: `http://127.0.0.1:${port}/api/v1`,
    apiKey: 'sk-or-other-key',
  })
  const azure = await score({
    model: 'gpt-test',
    baseURL: `http://localhost:${port}/openai/deployments/gpt-test`,
    apiKey: 'unused',
    headers: { 'api-key': 'azure-key-123456' },
    query: { 'api-version': '2024-10-21' },
  })
  for (const result of [openRouter, azure]) {
    expect(result.score).toBe(recorded.score)
    expect(result.reason).toBe(recorded.reason)
    expect(result.judgeCalls.map((call) => call.source)).toEqual([
      'replayed',
      'replayed',
      'replayed',
    ])
  }
})

test('record mode calls the judge again and re-records; off mode neither reads nor writes', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  await score(judge)
  server.setReply((request) =>
    request.body.messages.at(-1).content.startsWith('Explain')
      ? 'Re-recorded reason.'
      : judgeReply(request),
  )
  configureRubricate({ cassettes: { mode: 'record' } })
  server.clearRequests()
  const rerecorded = await score(judge)
  expect(server.requests).toHaveLength(3)
  expect(rerecorded.reason).toBe('Re-recorded reason.')
  expect(rerecorded.judgeCalls.map((call) => call.source)).toEqual([
    'recorded',
    'recorded',
    'recorded',
  ])
  expect(await entryFilesUnder(folder.dir)).toHaveLength(3)

  configureRubricate({ cassettes: { mode: 'off' } })
  server.setReply((request) =>
    request.body.messages.at(-1).content.startsWith('Explain') ? 'Live only.' : judgeReply(request),
  )
  const live = await score(judge)
  expect(live.reason).toBe('Live only.')
  expect(live.judgeCalls.map((call) => [call.source, call.cassetteKey])).toEqual([
    ['live', undefined],
    ['live', undefined],
    ['live', undefined],
  ])
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect((await score(judge)).reason).toBe('Re-recorded reason.')
})

test('a retried 429 is not recorded, the 200 after it is, and the call replays as that 200', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({
    reply: [fakeReply.status(429, { retryAfter: 0 }), fakeReply.json({ score: 0.5 })],
  })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  const scorer = createScorer({ id: 's', description: 's', judge: { model: judge } }).generateScore(
    {
      description: 's',
      createPrompt: () => 'Score it',
    },
  )
  const first = await scorer.run({ output: 'x' })
  expect(server.requests).toHaveLength(2)
  expect(first.judgeCalls[0]).toMatchObject({
    status: 'success',
    modelCallCount: 2,
    source: 'recorded',
  })
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.response.status).toBe(200)
  await server.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  const again = await scorer.run({ output: 'x' })
  expect(again.score).toBe(0.5)
  expect(again.judgeCalls[0]).toMatchObject({ source: 'replayed' })
})

test('401, 403, 408, 429 and 5xx replies are never recorded; 400, 404 and 422 are, and replay as such', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI()
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 }
  const attempt = (prompt: string) =>
    createScorer({ id: 's', description: 's', judge: { model: judge, structuredOutput: 'prompt' } })
      .generateScore({ description: 's', createPrompt: () => prompt })
      .run({ output: 'x' })
      .catch((error: unknown) => rootCause(error) as { code: string; status?: number })
  for (const status of [401, 403, 408, 429, 500, 503]) {
    server.setReply(fakeReply.status(status, { headers: { 'x-should-retry': 'false' } }))
    expect(await attempt(`status ${status}`)).toMatchObject({ status })
  }
  expect(await entryFilesUnder(folder.dir)).toEqual([])
  for (const status of [400, 404, 422]) {
    server.setReply(fakeReply.status(status, { message: `bad ${status}` }))
    expect(await attempt(`status ${status}`)).toMatchObject({ status })
  }
  expect((await entriesUnder(folder.dir)).map((entry) => entry.response.status).sort()).toEqual([
    400, 404, 422,
  ])
  await server.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  expect(await attempt('status 404')).toMatchObject({
    code: 'RUBRICATE_JUDGE_REQUEST',
    status: 404,
    message: expect.stringContaining('bad 404'),
  })
})

test('a corrupt cassette is RUBRICATE_CASSETTE_CORRUPT naming the file, which is left as it was', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }
  await score(judge)
  const [first] = await entryFilesUnder(folder.dir)
  const file = join(folder.dir, first ?? '')
  const broken = (await readFile(file, 'utf8')).slice(0, 40)
  await writeFile(file, broken)
  server.clearRequests()
  const error = rootCause(await rejectionOf(score(judge)))
  expect(error).toMatchObject({ code: 'RUBRICATE_CASSETTE_CORRUPT', file })
  expect((error as Error).message).toMatch(
    new RegExp(
      `^\\[rubricate\\] The cassette file "${file}" cannot be used: it is not valid JSON \\(`,
    ),
  )
  expect(await readFile(file, 'utf8')).toBe(broken)
  expect(server.requests.length).toBeLessThan(3)
})

test('an invalid RUBRICATE_CASSETTES value fails the judge call with an error listing the four modes', async () => {
  server = await startFakeOpenAI({ reply: judgeReply })
  process.env.RUBRICATE_CASSETTES = 'replay-only'
  const error = rootCause(
    await rejectionOf(score({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' })),
  )
  expect(error).toMatchObject({
    code: 'RUBRICATE_USAGE',
    message: linked(
      '[rubricate] RUBRICATE_CASSETTES is "replay-only", which is not a cassette mode. Use one of "replay", "auto", "record", "off".',
      'usage',
    ),
  })
  expect(server.requests).toHaveLength(0)
})

test('a replay miss whose call goes elsewhere than its nearest entry was recorded prints the base URL and the key to record with', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: judgeReply })
  await score({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' })
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.baseURL).toBe(server.baseURL)
  // Replayed where OPENAI_BASE_URL and OPENAI_API_KEY are not set: the judge would go to OpenAI.
  configureRubricate({ cassettes: { mode: 'replay' } })
  server.clearRequests()
  const error = rootCause(
    await rejectionOf(
      score({ model: 'gpt-test', baseURL: 'https://api.openai.com/v1' }, 'Paris is in Spain'),
    ),
  ) as Error
  expect(server.requests).toHaveLength(0)
  expect(error.message).toContain(
    `  recorded: at "${server.baseURL}"; this call goes to "https://api.openai.com/v1" (record against the endpoint that served it, with its base URL set)\n`,
  )
  expect(error.message).toContain(
    `Record it with:\n  OPENAI_BASE_URL=${server.baseURL} OPENAI_API_KEY=<your key> RUBRICATE_CASSETTES=auto npx vitest run ${FILE} -t "checks facts"\n`,
  )
})
