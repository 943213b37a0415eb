import { afterEach, expect, test, vi } from 'vitest'
import { configureRubricate, createScorer } from '../../src'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  server = undefined
})

test('a recorded call reports the key it was written under, also when a new secret changed it', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: { score: 1 } })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const scorer = (prompt: string) =>
    createScorer({ id: 's', description: 's', judge: { model: judge } }).generateScore({
      description: 'Score',
      createPrompt: () => prompt,
    })
  // Lists the environment's secret names, which are then kept for up to a second.
  await scorer('warm up').run({ output: 'x' })
  // A secret that appears after that listing: the request is keyed without it, but the entry
  // is redacted with it (the names are listed afresh before every write), so its key differs.
  vi.stubEnv('FRESH_SERVICE_TOKEN', 'tok-Fr3shS3cr3t-0042')
  const result = await scorer('Score tok-Fr3shS3cr3t-0042').run({ output: 'x' })
  const key = result.judgeCalls[0]?.cassetteKey as string
  expect(result.judgeCalls[0]?.source).toBe('recorded')
  expect((await entriesUnder(folder.dir)).map((entry) => entry.key)).toContain(key)
})
