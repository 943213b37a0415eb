// The worker's runtime is the one source of configuration, stores and secrets (issue 26, item 2):
// whatever configureRubricate or the environment says now is what the next exchange and the next
// miss message use, through every path, with no copy left behind by an earlier read.

import OpenAI from 'openai'
import { expect, onTestFinished, test } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { currentRuntime } from '../../src/runtime/runtime'
import { startFakeOpenAI } from '../../src/testing'
import { failureOf, judgeRubric, judgeServer, PASSING_VERDICT } from '../reliability/support'
import { tempDir } from '../support/temp-dir'
import { entryFilesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()

test('configureRubricate between two judge calls changes the folder the exchange reads and the miss names', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const { server, judge } = await judgeServer(PASSING_VERDICT)
  expect((await judgeRubric(judge)).score).toBe(1)
  expect(await entryFilesUnder(folder.dir)).toHaveLength(1)

  // Another folder, in replay mode: the same request misses there, and the miss names it.
  const other = tempDir('rubricate-other-')
  configureRubricate({ cassettes: { mode: 'replay', dir: other } })
  expect(currentRuntime().config().cassettes).toMatchObject({ mode: 'replay', dir: other })
  const { root } = await failureOf(judgeRubric(judge))
  expect(root.code).toBe('RUBRICATE_CASSETTE_MISS')
  expect(root.message).toContain(other.split(/[\\/]/).pop())
  expect(root.message).not.toContain(folder.dir.split(/[\\/]/).pop())

  // Back to the first folder: replayed from it, with no new live request.
  configureRubricate({ cassettes: { dir: folder.dir } })
  expect((await judgeRubric(judge)).score).toBe(1)
  expect(server.requests).toHaveLength(1)
  expect(await entryFilesUnder(other)).toEqual([])
})

test('a cassette fetch made before configureRubricate follows it: the agent path reads the runtime at each request', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  const server = await startFakeOpenAI({ reply: 'recorded once' })
  onTestFinished(() => server.close())
  const client = new OpenAI({
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    fetch: createCassetteFetch(),
  })
  const ask = () =>
    client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    })
  await ask()
  expect(server.requests).toHaveLength(1)

  const other = tempDir('rubricate-other-')
  configureRubricate({ cassettes: { mode: 'replay', dir: other } })
  const miss = await ask().catch((error: unknown) => error as { status?: number; message?: string })
  expect(miss).toMatchObject({ status: 400 })
  expect(String((miss as { message?: string }).message)).toContain(other.split(/[\\/]/).pop())
  expect(server.requests).toHaveLength(1)

  // The environment wins over configureRubricate at the very next request: auto again, recorded
  // into the other folder.
  process.env.RUBRICATE_CASSETTES = 'auto'
  await ask()
  expect(server.requests).toHaveLength(2)
  expect(await entryFilesUnder(other)).toHaveLength(1)
})

test('the runtime keeps one store per folder and the process one secret registry', () => {
  const runtime = currentRuntime()
  const other = tempDir('rubricate-other-')
  configureRubricate({ cassettes: { dir: other } })
  expect(runtime.config().cassettes.dir).toBe(other)
  configureRubricate({ cassettes: { dir: folder.dir } })
  expect(runtime.config().cassettes.dir).toBe(folder.dir)
  // A secret the environment gains is known at the next refresh, with no clock in between.
  process.env.RUBRICATE_RUNTIME_TOKEN = 'tok-Runtime-1a2b3c4d'
  onTestFinished(() => {
    delete process.env.RUBRICATE_RUNTIME_TOKEN
  })
  expect(runtime.secrets.refresh().map((secret) => secret.value)).toContain('tok-Runtime-1a2b3c4d')
})
