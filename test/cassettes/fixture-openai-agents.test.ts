// Runs Vitest on test/fixtures/openai-agents: a project on the real OpenAI Agents SDK (0.14 with
// openai 6), recorded against a loopback server that speaks the Responses and Conversations APIs,
// re-recorded against a second server that issues new ids for the same answers, then replayed
// under CI with no server at all. Every test passes each time: handoffs, an agent as a tool, a
// previousResponseId chain, approve and reject tests that share a first request, a session that
// reads its conversation twice, and three identical requests made at once; the matchers read the
// RunResults as they are (a handoff, who made it and whom it reached). Tokens are counted from the
// Responses API's usage, and no cassette holds the client's key.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  type FakeFunctionCall,
  type FakeStatefulOpenAI,
  startFakeStatefulOpenAI,
} from '../support/fake-stateful-openai'
import { copyFixture, loopbackGuardOption, removeCopy, runVitest } from '../support/run-vitest'
import { entriesUnder, filesUnder } from './support'

// The key the fixture's OpenAI client is built with (test/fixtures/openai-agents/agents.test.ts).
const FIXTURE_KEY = 'sk-fixture-agents-0000'

let dir: string

beforeAll(async () => {
  dir = await copyFixture('openai-agents')
})
afterAll(async () => {
  if (dir) await removeCopy(dir)
})

type Item = { type?: string; role?: string; output?: unknown; content?: unknown }

/** What each agent of the fixture answers, by its instructions. */
function answers() {
  const counts = new Map<string, number>()
  return (body: Record<string, unknown>): string | FakeFunctionCall => {
    const input = (
      Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input }]
    ) as Item[]
    const outputs = input.filter((item) => item.type === 'function_call_output')
    const said = (item: Item) =>
      typeof item.output === 'string' ? item.output : JSON.stringify(item.output)
    const tools = ((body.tools as { name?: string }[]) ?? []).map((t) => t.name)
    const agent = String(body.instructions)
    const n = (counts.get(agent) ?? 0) + 1
    counts.set(agent, n)
    switch (agent) {
      case 'triage':
        return tools.includes('transfer_to_billing') && outputs.length === 0
          ? { call: 'transfer_to_billing', arguments: {} }
          : 'triage answers'
      case 'billing':
        return 'Billing here: your invoice is paid.'
      case 'orchestrator':
        return outputs.length
          ? `done: ${said(outputs[0] as Item)}`
          : { call: 'translate_to_french', arguments: { input: 'hello' } }
      case 'translator':
        return 'bonjour'
      case 'planner':
        return body.previous_response_id ? 'shorter plan' : 'plan'
      case 'refunds':
        return outputs.length
          ? `refund result: ${said(outputs[0] as Item)}`
          : { call: 'refund', arguments: { order: 7 } }
      case 'chat':
        return `turn ${input.filter((item) => item.role === 'user').length}`
      case 'candidates':
        return `candidate ${n}`
      default:
        return `unknown agent ${agent}`
    }
  }
}

async function serve(tag: string): Promise<FakeStatefulOpenAI> {
  return startFakeStatefulOpenAI({ tag, answer: answers(), delayMs: 10 })
}

const run = (baseURL: string, options: { ci?: boolean; update?: boolean } = {}) =>
  runVitest(dir, options.update ? ['-u'] : [], {
    ci: options.ci,
    env: {
      OPENAI_BASE_URL: baseURL,
      FIXTURE_CASSETTES: join(dir, '__cassettes__'),
      NODE_OPTIONS: loopbackGuardOption,
    },
  })

test('an Agents SDK project records, re-records against new ids, and replays offline', {
  timeout: 240_000,
}, async () => {
  const first = await serve('aaa')
  const recorded = await run(first.baseURL)
  await first.close()
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  expect(recorded.stdout).toContain('Tests  7 passed (7)')
  // The session read its conversation's items more than once, each read recorded.
  const reads = first.requests.filter((r) =>
    /^GET \/v1\/conversations\/conv_aaa_\d+\/items/.test(r),
  )
  expect(reads.length).toBeGreaterThanOrEqual(2)
  const entries = await entriesUnder(join(dir, '__cassettes__'))
  // Tokens counted from the Responses API's usage, and no key in any cassette file.
  const liveTokens = /Agents {2}\d+ calls: .* · tokens ([\d,]+) live, /.exec(recorded.stdout)?.[1]
  expect(Number(liveTokens?.replace(/,/g, '')), recorded.stdout).toBeGreaterThan(0)
  const files = await filesUnder(join(dir, '__cassettes__'))
  const text = (
    await Promise.all(files.map((file) => readFile(join(dir, '__cassettes__', file), 'utf8')))
  ).join('')
  expect(text).not.toContain(FIXTURE_KEY)

  const second = await serve('bbb')
  const rerecorded = await run(second.baseURL, { update: true })
  await second.close()
  expect(rerecorded.exitCode, rerecorded.stdout + rerecorded.stderr).toBe(0)
  expect(rerecorded.stdout).toContain('Tests  7 passed (7)')
  // The server knew none of the stored ids and was asked with its own.
  expect(second.requests.join('\n')).not.toContain('aaa')

  // No server at all: a closed port on loopback.
  const replayed = await run(first.baseURL, { ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Tests  7 passed (7)')
  expect(replayed.stdout).toMatch(
    /Agents {2}(\d+) calls: \1 replayed, 0 live · tokens 0 live, [\d,]+ replayed/,
  )
  expect(entries.length).toBeGreaterThanOrEqual(20)
})
