// End to end (issue 29, item 6): a project whose agents use the real `@anthropic-ai/sdk`,
// `@google/genai` and the AI SDK's Anthropic and Google providers, with rubricate's default
// configuration, records against fake servers on loopback that speak each protocol, then replays
// under CI=true with the servers stopped: tokens in the summary's Agents line, no key in any
// cassette.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { type FakeProviderServer, startFakeAnthropic, startFakeGemini } from '../../src/testing'
import { runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { entriesUnder, filesUnder } from './support'

const ANTHROPIC_KEY = 'sk-ant-api03-fixture-key-0123456789abcdef'
const GEMINI_KEY = 'AIzaSyFixtureKey0123456789abcdefghijk'
const servers: FakeProviderServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

test('Anthropic and Gemini agents record, then replay offline under CI=true with tokens in the summary and no key in any cassette', async () => {
  const anthropic = await startFakeAnthropic({
    reply: (request) =>
      request.body?.tools
        ? { toolCalls: [{ name: 'lookup_order', arguments: { id: '42' } }] }
        : 'Order 42 is shipped.',
  })
  const gemini = await startFakeGemini({
    reply: (request) => `${/models\/([^:]+):/.exec(request.path)?.[1]}: order 42 is shipped.`,
  })
  servers.push(anthropic, gemini)
  const dir = join(tempDir('rubricate-providers-'), 'cassettes')
  const env = {
    FAKE_ANTHROPIC_URL: anthropic.url,
    FAKE_GEMINI_URL: gemini.url,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    GEMINI_API_KEY: GEMINI_KEY,
    FIXTURE_CASSETTES: dir,
  }

  const recorded = await runVitest('native-agents', [], { env })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(recorded.stdout).toMatch(
    /Agents {2}10 calls: 0 replayed, 10 live \(all recorded into cassettes\) · tokens [\d,]+ live, 0 replayed/,
  )
  const sent = anthropic.requests.length + gemini.requests.length
  expect(sent).toBe(10)
  const entries = await entriesUnder(dir)
  expect(entries.map((entry) => entry.request.endpoint).sort()).toEqual([
    'models/gemini-2.5-flash:generateContent',
    'models/gemini-2.5-flash:generateContent',
    'models/gemini-2.5-flash:streamGenerateContent',
    'models/gemini-2.5-flash:streamGenerateContent',
    'models/gemini-2.5-pro:generateContent',
    'v1/messages',
    'v1/messages',
    'v1/messages',
    'v1/messages',
    'v1/messages',
  ])
  const files = await filesUnder(dir)
  const text = (await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))).join('')
  expect(text).not.toContain(ANTHROPIC_KEY)
  expect(text).not.toContain(GEMINI_KEY)
  expect(text).toContain('"streamedText": "Order 42 is shipped."')
  expect(text).toContain('"streamedText": "gemini-2.5-flash: order 42 is shipped."')
  expect((await verifyCassettes(dir)).problems).toEqual([])
  const liveTokens = /tokens ([\d,]+) live/.exec(recorded.stdout)?.[1]

  await Promise.all(servers.splice(0).map((server) => server.close()))
  const replayed = await runVitest('native-agents', [], { env, ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain(
    `Agents  10 calls: 10 replayed, 0 live · tokens 0 live, ${liveTokens} replayed`,
  )
}, 180_000)
