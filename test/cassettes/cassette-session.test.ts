import { afterEach, expect, test } from 'vitest'
import { configureRubricate, createScorer } from '../../src'
import { isMswActive } from '../../src/cassettes/agents/msw-compat'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { setCassetteRunFacts } from '../../src/cassettes/run/cassette-session'
import { withCallContext } from '../../src/runtime/call-context'
import { currentRuntime, setPluginConfig } from '../../src/runtime/runtime'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { testIn, useCassetteFolder } from './support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  stopCassetteServer()
  currentRuntime().session.takeUsage()
  await server?.close()
  server = undefined
})

function ask(judge: object, prompt: string) {
  return createScorer({ id: 's', description: 's', judge: { model: judge as never } })
    .generateScore(() => 1)
    .generateReason({ description: 'Explain', createPrompt: () => prompt })
    .run({ output: 'x' })
}

test("with no mode set, CI=false means auto and Vitest's update flag means record", async () => {
  setPluginConfig({})
  server = await startFakeOpenAI({ reply: 'first' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  process.env.CI = 'false'
  expect((await ask(judge, 'q')).judgeCalls[0]?.source).toBe('recorded')
  server.setReply('second')
  expect((await ask(judge, 'q')).reason).toBe('first')
  setCassetteRunFacts({ updateSnapshots: true })
  const updated = await ask(judge, 'q')
  expect(updated.reason).toBe('second')
  expect(updated.judgeCalls[0]?.source).toBe('recorded')
  expect(server.requests).toHaveLength(2)
})

test('the session lists the keys used and the misses of the file, then starts afresh', async () => {
  configureRubricate({ cassettes: { mode: 'auto' } })
  server = await startFakeOpenAI({ reply: 'ok' })
  const judge = { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k' }
  const b = await ask(judge, 'b')
  const a = await ask(judge, 'a')
  configureRubricate({ cassettes: { mode: 'replay' } })
  await withCallContext({ test: testIn('misses once') }, () => ask(judge, 'c')).catch(
    () => undefined,
  )
  const session = currentRuntime().session
  const keys = [a, b].map((result) => result.judgeCalls[0]?.cassetteKey)
  expect(session.usedKeys().sort()).toEqual([...keys].sort())
  expect(session.misses()).toEqual([
    expect.objectContaining({
      endpoint: 'chat/completions',
      model: 'gpt-test',
      test: 'misses once',
    }),
  ])
  expect(session.takeUsage()).toEqual({
    mode: 'replay',
    dir: folder.dir,
    used: [...keys].sort(),
    misses: [expect.objectContaining({ key: expect.any(String) })],
    // Judge calls only: the agents made none.
    agentCalls: { replayed: 0, recorded: 0, live: 0, failed: 0 },
  })
  expect(session.usedKeys()).toEqual([])
  expect(session.misses()).toEqual([])
})

test('starting the server twice starts it once, and cassettes.server external starts none', () => {
  const session = startCassetteServer()
  expect(isMswActive()).toBe(true)
  expect(startCassetteServer()).toBe(session)
  stopCassetteServer()
  expect(isMswActive()).toBe(false)
  configureRubricate({ cassettes: { server: 'external' } })
  expect(startCassetteServer()).toBe(session)
  expect(isMswActive()).toBe(false)
})
