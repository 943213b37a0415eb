// What a test file that replays a judge call loads, from the built package (ARCHITECTURE.md §10):
// a recorded judge reply is read from its entry, so the replay builds no `Response` and never
// loads Node's fetch (undici, about 24 ms of CPU a test file). The recording run, which calls the
// judge live through the SDK, loads it: the probe sees it when it is there. Where every worker
// loads it anyway (Node 24), what counts is what the replaying file loads beyond a file that makes
// no rubricate call.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FakeOpenAI } from '../../src/testing'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let root = ''

beforeAll(async () => {
  server = await startFixtureOpenAI()
  root = await copyFixture('replay-loads')
})

afterAll(async () => {
  await removeCopy(root)
  await server.close()
})

const UNDICI = 'NativeModule internal/deps/undici/undici'

function loaded(stdout: string, marker = 'LOADED'): string[] {
  const line = new RegExp(`${marker} (\\[.*\\])`).exec(stdout)
  if (!line?.[1]) throw new Error(`The fixture printed no ${marker} line:\n${stdout}`)
  return JSON.parse(line[1]) as string[]
}

test('a replayed judge call loads no undici in its worker; the live one that recorded it does', async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL }
  const recorded = await runVitest(root, [], { env })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(loaded(recorded.stdout)).toContain(UNDICI)

  const replayed = await runVitest(root, [], { ci: true, env })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Judge  1 call: 1 replayed, 0 live')
  const baseline = loaded(replayed.stdout, 'BASELINE')
  const added = loaded(replayed.stdout).filter((name) => !baseline.includes(name))
  expect(added).not.toContain(UNDICI)
  expect(server.requests).toHaveLength(1)
})
