// Format 2, as a reviewer and a replay see it: entries under their test, verdicts first, prompts
// as lines, one shared reply schema, no churn on an unchanged re-record, lookup by content.
import { readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { configureRubricate, createRubricScorer } from '../../src'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import type { CassetteEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { decodeValue, encodeValue } from '../../src/cassettes/store/entry-encoding'
import { rootCause } from '../../src/errors'
import { withCallContext } from '../../src/runtime/call-context'
import { runtimeState } from '../../src/runtime/state'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { rejectionOf } from '../judge/helpers'
import { judgeBy } from '../support/rubric-judge'
import { entryFilesUnder, filesUnder, testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  runtimeState().run.configFile = undefined
})

const FILE = 'test/cassettes/cassette-format.test.ts'
const RUBRIC = ['Acknowledges the double charge', 'Gives a timeframe for the refund']

function judgeRefund(
  judge: object,
  input = 'I was charged twice.\nCan I get a refund?',
  name = 'refunds > answers a refund question',
  file = FILE,
) {
  return withCallContext({ test: testIn(name, file) }, () =>
    createRubricScorer({ judge: judge as never, criteria: RUBRIC }).run({
      input,
      output: 'Sorry for the double charge; the refund reaches your card within 5 days.',
    }),
  )
}

async function startJudge(timeframe = true) {
  server = await startFakeOpenAI({
    reply: judgeBy((text) => timeframe || !text.includes('timeframe')),
  })
  return { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'sk-test' }
}

test('a judge entry lies under its test file and name, opens with its verdicts, keeps the prompt as lines and the schema once', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const judge = await startJudge()
  await judgeRefund(judge)
  await judgeRefund(judge, 'Another question', 'refunds > answers another question')
  const files = await entryFilesUnder(folder.dir)
  expect(files).toEqual(
    expect.arrayContaining([
      expect.stringMatching(
        /^test\/cassettes\/cassette-format\.test\.ts\/refunds-answers-a-refund-question\.[0-9a-f]{12}\.json$/,
      ),
      expect.stringMatching(
        /^test\/cassettes\/cassette-format\.test\.ts\/refunds-answers-another-question\.[0-9a-f]{12}\.json$/,
      ),
    ]),
  )
  expect(files).toHaveLength(2)
  // Both requests carry the same reply schema: one shared file.
  const all = await filesUnder(folder.dir)
  expect(all.filter((file) => file.startsWith('_shared/schemas/'))).toHaveLength(1)
  const text = await readFile(
    join(folder.dir, files.find((file) => file.includes('refund-question')) as string),
    'utf8',
  )
  const lines = text.split('\n')
  expect(lines.slice(0, 8)).toEqual([
    '{',
    '  "v": 2,',
    '  "verdicts": [',
    '    {',
    '      "id": "c1",',
    '      "criterion": "Acknowledges the double charge",',
    '      "satisfied": true,',
    '      "reasoning": "Evidence for: Acknowledges the double charge"',
  ])
  const raw = JSON.parse(text)
  expect(raw.request.body.response_format.json_schema.schema).toEqual({
    $sharedSchema: expect.stringMatching(/^[0-9a-f]{16}$/),
  })
  const task = raw.request.body.messages[1].content.$lines as string[]
  expect(task).toContain('I was charged twice.')
  expect(task).toContain('Can I get a refund?')
  // The key is still over the full body, schema included: verify recomputes every key.
  const store = new CassetteStore(folder.dir)
  const entry = store.readEntryFile(join(folder.dir, files[0] as string)) as CassetteEntry
  expect(computeKey(entry.request.endpoint, entry.request.body)).toBe(entry.key)
  expect(JSON.stringify(entry.request.body)).toContain('"additionalProperties"')
})

test('a re-record of an unchanged reply leaves the file untouched; a changed reply rewrites only its own file', async () => {
  configureRubricate({ cassettes: { mode: 'record' } })
  let judge = await startJudge()
  await judgeRefund(judge)
  await judgeRefund(judge, 'Another question', 'refunds > answers another question')
  const files = await entryFilesUnder(folder.dir)
  const before = await Promise.all(
    files.map(async (file) => ({
      text: await readFile(join(folder.dir, file), 'utf8'),
      mtime: (await stat(join(folder.dir, file))).mtimeMs,
    })),
  )
  await new Promise((resolve) => setTimeout(resolve, 20))
  // Recorded again: new response ids from the server, a new recording time.
  const again = await judgeRefund(judge)
  expect(again.judgeCalls.map((call) => call.source)).toEqual(['recorded'])
  await judgeRefund(judge, 'Another question', 'refunds > answers another question')
  for (const [i, file] of files.entries()) {
    expect(await readFile(join(folder.dir, file), 'utf8')).toBe(before[i]?.text)
    expect((await stat(join(folder.dir, file))).mtimeMs).toBe(before[i]?.mtime)
  }
  await server?.close()
  judge = await startJudge(false)
  await judgeRefund(judge)
  expect(await entryFilesUnder(folder.dir)).toEqual(files)
  const changed = files.map(
    (file, i) => before[i]?.text !== readFileSync(join(folder.dir, file), 'utf8'),
  )
  expect(changed).toEqual(files.map((file) => file.includes('refund-question')))
})

test("a renamed or moved test is served none of the old test's recordings: the miss names the test that recorded the request", async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const judge = await startJudge()
  await judgeRefund(judge)
  await server?.close()
  configureRubricate({ cassettes: { mode: 'replay' } })
  const moved = judgeRefund(
    judge,
    undefined,
    'a renamed suite > a renamed test',
    'test/elsewhere/moved.test.ts',
  )
  const message = (rootCause(await rejectionOf(moved)) as Error).message
  expect(message).toContain(
    `  differs:  nothing: this exact request was recorded by "${FILE} > refunds > answers a refund question", and a test is served only the replies it recorded itself (a renamed or moved test records again)`,
  )
})

test('cassettes.normalize makes a date in the prompt constant: the next day replays; without it the miss shows the changed date and keeps --config', async () => {
  const normalize = (text: string) => text.replace(/\d{4}-\d\d-\d\d/g, '<date>')
  configureRubricate({ cassettes: { mode: 'auto', normalize } })
  const judge = await startJudge()
  const recorded = await judgeRefund(judge, 'Today is 2026-11-30. I was charged twice.')
  await server?.close()
  configureRubricate({ cassettes: { mode: 'replay', normalize } })
  const nextDay = await judgeRefund(judge, 'Today is 2026-12-01. I was charged twice.')
  expect(nextDay.judgeCalls.map((call) => call.source)).toEqual(['replayed'])
  expect(nextDay.verdicts).toEqual(recorded.verdicts)

  configureRubricate({ cassettes: { mode: 'replay', normalize: undefined } })
  runtimeState().run.configFile = join(process.cwd(), 'vitest.nightly.config.ts')
  const message = (
    rootCause(
      await rejectionOf(judgeRefund(judge, 'Today is 2026-12-02. I was charged twice.')),
    ) as Error
  ).message
  expect(message).toContain(
    '  changed:  messages[1].content was "…ructions):\\n```\\nToday is <date>. I was charged twice.\\n`…", is now "…ructions):\\n```\\nToday is 2026-12-02. I was charged twice.\\n`…"',
  )
  expect(message).toContain(
    `RUBRICATE_CASSETTES=auto npx vitest run --config vitest.nightly.config.ts ${FILE} -t "refunds answers a refund question"`,
  )
})

test('cassettes.normalize must be a function', () => {
  expect(() => configureRubricate({ cassettes: { normalize: 'dates' as never } })).toThrowError(
    expect.objectContaining({ code: 'RUBRICATE_USAGE' }),
  )
})

test('a streamed reply is stored with its joined text beside its events, and replays event for event', async () => {
  const store = new CassetteStore(folder.dir)
  const body = { model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }
  const event = (content: string) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { content } }] })}\n\n`
  const entry: CassetteEntry = {
    v: 2,
    key: computeKey('chat/completions', body),
    recordedAt: '2026-01-02T03:04:05.000Z',
    recordedBy: 'test/s.test.ts > streams',
    request: { method: 'POST', endpoint: 'chat/completions', body },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      sse: [
        { t: 0, chunk: event('Hello ') },
        { t: 3, chunk: event('there.') },
        { t: 4, chunk: 'data: [DONE]\n\n' },
      ],
    },
  }
  await store.write(entry)
  const raw = JSON.parse(await readFile(store.file(entry.key), 'utf8'))
  expect(raw.response.streamedText).toBe('Hello there.')
  expect(new CassetteStore(folder.dir).readOwn(entry.key, entry.recordedBy)).toEqual(entry)
})

test('the encoding of values is lossless: lines, embeddings, and objects that look like its markers', () => {
  const floats = Buffer.from(new Float32Array([0.25, -1.5, 2.75]).buffer).toString('base64')
  const value = {
    prompt: 'one\ntwo\n\nthree\n',
    data: [{ embedding: floats, index: 0 }],
    odd: { $lines: ['not', 'lines'] },
    nested: { $escape: { $float32: 'x' } },
    plain: 'no line break',
  }
  const encoded = encodeValue(value) as any
  expect(encoded.prompt).toEqual({ $lines: ['one', 'two', '', 'three', ''] })
  expect(encoded.data[0].embedding).toEqual({ $float32: [0.25, -1.5, 2.75] })
  expect(decodeValue(JSON.parse(JSON.stringify(encoded)), () => undefined)).toEqual(value)
})
