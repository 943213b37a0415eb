import { readFile, writeFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { expect, test } from 'vitest'
import { configureRubricate, createScorer, type JudgeModel, type JudgeRequest } from '../../src'
import { cached } from '../../src/cassettes'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { rootCause } from '../../src/errors'
import { completeInCall } from '../../src/judge/cassette-bridge'
import { embedTexts } from '../../src/judge/embed'
import { judgeCallScope } from '../../src/judge/judge-call-scope'
import { type ExchangeEvent, runAsTest, withCallContext } from '../../src/runtime/call-context'
import { rejectionOf } from '../judge/helpers'
import { entriesUnder, entryFilesUnder, testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()

function countingModel(id = 'my-judge'): JudgeModel & { calls: JudgeRequest[] } {
  const calls: JudgeRequest[] = []
  return {
    id,
    calls,
    async complete(request) {
      calls.push(request)
      return {
        text: `verdict ${calls.length} on ${request.prompt}`,
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      }
    },
  }
}

test('a custom judge model is recorded keyed on its request and id, and replayed without calling it', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const model = countingModel()
  const judge = cached(model)
  const request = { system: 'Be strict.', prompt: 'Is it right?', seed: 1 }
  const events: ExchangeEvent[] = []
  // The judge call hands the model its prompt version and listener.
  const inCall = (asked: typeof request) =>
    withCallContext({ test: testIn('judges') }, () =>
      completeInCall(
        judge,
        asked,
        {},
        judgeCallScope({ promptVersion: '2', onExchange: (e) => events.push(e) }),
      ),
    )
  const first = await inCall(request)
  // The same test again (a later run of it): a reply is served to the test that recorded it.
  const again = await inCall({ seed: 1, prompt: 'Is it right?', system: 'Be strict.' })
  expect(model.calls).toHaveLength(1)
  expect(again).toEqual(first)
  const [entry] = await entriesUnder(folder.dir)
  // Each exchange names its entry's file in the test file's folder, as the report page shows it.
  const [file] = await entryFilesUnder(folder.dir)
  expect(file).toBe(`test/cassettes/example.test.ts/judges.${entry.key.slice(0, 12)}.json`)
  expect(events.map((event) => ({ ...event, reply: event.reply?.() }))).toEqual([
    // The latency it was recorded with, replayed as recorded.
    {
      source: 'recorded',
      key: entry.key,
      file,
      reply: entry.response.json,
      latencyMs: expect.any(Number),
    },
    {
      source: 'replayed',
      key: entry.key,
      file,
      reply: entry.response.json,
      latencyMs: entry.response.latencyMs,
    },
  ])
  expect(entry).toMatchObject({
    promptVersion: '2',
    recordedBy: 'test/cassettes/example.test.ts > judges',
    request: {
      method: 'CALL',
      endpoint: 'judge-model',
      body: { model: 'my-judge', system: 'Be strict.', prompt: 'Is it right?', seed: 1 },
    },
    response: { status: 200, json: first },
  })
  await judge.complete({ ...request, seed: 2 }, {})
  await cached(countingModel('other-judge')).complete(request, {})
  expect(await entriesUnder(folder.dir)).toHaveLength(3)
})

test('wrapping twice changes nothing, and a replay-mode miss never calls the model', async () => {
  configureRubricate({ cassettes: { mode: 'replay' } })
  const model = countingModel()
  const judge = cached(model)
  expect(cached(judge)).toBe(judge)
  const error = await rejectionOf(
    withCallContext({ test: testIn('misses') }, () => judge.complete({ prompt: 'new' }, {})),
  )
  expect(model.calls).toHaveLength(0)
  expect(error).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
  expect((error as Error).message).toContain(`  endpoint: judge-model\n  model:    my-judge\n`)
  expect((error as Error).message).toContain(
    `  nearest:  none: ${folder.dir}/ holds no entry for endpoint "judge-model" and model "my-judge"\n`,
  )
})

test('the judge wraps a custom model on its own, so scorers record and replay it', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const model = countingModel()
  const scorer = createScorer({ id: 's', description: 's', judge: { model } })
    .generateScore(() => 1)
    .generateReason({ description: 'Explain', createPrompt: () => 'Why?' })
  const live = await scorer.run({ output: 'x' })
  configureRubricate({ cassettes: { mode: 'replay' } })
  const replayed = await scorer.run({ output: 'x' })
  expect(model.calls).toHaveLength(1)
  expect(replayed.reason).toBe(live.reason)
  expect(replayed.judgeCalls[0]?.source).toBe('replayed')
  configureRubricate({ cassettes: { mode: 'replay' } })
  const miss = await rejectionOf(
    createScorer({ id: 's', description: 's', judge: { model } })
      .generateScore(() => 1)
      .generateReason({ description: 'Explain', createPrompt: () => 'Why not?' })
      .run({ output: 'x' }),
  )
  expect(rootCause(miss)).toMatchObject({ code: 'RUBRICATE_CASSETTE_MISS' })
})

test("a replayed entry that holds no judge reply is RUBRICATE_CASSETTE_CORRUPT naming its own file, also for a test's second identical request", async () => {
  configureRubricate({ cassettes: { mode: 'record' } })
  const judge = cached(countingModel())
  const twice = () =>
    runAsTest({ identity: testIn('asks twice') }, undefined, async () => [
      await judge.complete({ prompt: 'Is it right?' }, {}),
      await judge.complete({ prompt: 'Is it right?' }, {}),
    ])
  await twice()
  const { entries } = await new CassetteStore(folder.dir).list()
  expect(entries).toHaveLength(2)
  // The second request's entry (its occurrence in the key) loses its reply's text by hand.
  const files = await Promise.all(
    entries.map(async ({ file }) => ({ file, json: JSON.parse(await readFile(file, 'utf8')) })),
  )
  const second = files.find(({ json }) => json.request.occurrence === 2)
  if (!second) throw new Error('no entry of the second request')
  delete second.json.response.json.text
  await writeFile(second.file, JSON.stringify(second.json, null, 2))
  configureRubricate({ cassettes: { mode: 'replay' } })
  const error = (await rejectionOf(twice())) as Error & { code?: string }
  expect(error.code).toBe('RUBRICATE_CASSETTE_CORRUPT')
  expect(error.message).toContain(basename(second.file))
  expect(error.message).toContain('is not a judge reply with a "text" string')
})

test("a replayed embedding entry that holds no embeddings is RUBRICATE_CASSETTE_CORRUPT naming the test's own file", async () => {
  configureRubricate({ cassettes: { mode: 'record' } })
  const embedder = { id: 'my-embedder', embed: async (texts: string[]) => texts.map(() => [1, 0]) }
  const embed = () =>
    runAsTest({ identity: testIn('embeds') }, undefined, () =>
      embedTexts(embedder, ['a', 'b'], 'analyze'),
    )
  await embed()
  const { entries } = await new CassetteStore(folder.dir).list()
  expect(entries).toHaveLength(1)
  const file = (entries[0] as { file: string }).file
  const json = JSON.parse(await readFile(file, 'utf8'))
  delete json.response.json.embeddings
  await writeFile(file, JSON.stringify(json, null, 2))
  configureRubricate({ cassettes: { mode: 'replay' } })
  const error = (await rejectionOf(embed())) as Error & { code?: string }
  expect(error.code).toBe('RUBRICATE_CASSETTE_CORRUPT')
  expect(error.message).toContain(basename(file))
  expect(error.message).toContain('holds no "embeddings" list of number lists')
})
