import { expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import { plain } from '../../reporters/figures'
import { dollars, renderSummary } from '../../reporters/render-summary'
import { summariseRun } from '../../reporters/run-summary'
import { call, record, verdict } from './records'

function report(...records: ReturnType<typeof record>[]): RunReport {
  return {
    skippedTests: 0,
    files: [{ file: 'a.test.ts', tests: [{ name: 't', fullName: 't', state: 'pass', records }] }],
  }
}

test('counts assertions by status, criteria by outcome, and judge calls by source', () => {
  const summary = summariseRun(
    report(
      record({
        verdicts: [verdict('a', true), verdict('b', false, { required: false })],
        judgeCalls: [call('replayed')],
      }),
      record({
        status: 'fail',
        verdicts: [verdict('c', false), verdict('d', true)],
        judgeCalls: [call('recorded', { input: 1000, output: 500 })],
      }),
      record({ kind: 'scorer', status: 'error', judgeCalls: [call('live', null)] }),
    ),
    {},
  )
  expect(summary.assertions).toEqual({ total: 3, passed: 1, failed: 1, errored: 1 })
  expect(summary.criteria).toEqual({ total: 4, met: 2, requiredUnmet: 1, optionalUnmet: 1 })
  expect(summary.judge).toEqual({
    calls: 3,
    replayed: 1,
    recorded: 1,
    live: 1,
    failed: 0,
    // Records without liveRequestCount (older runs): each call that was not replayed made one.
    liveRequests: 2,
    tokens: { live: 1500, replayed: 1000 },
    // gpt-4.1-mini: 1000 x $0.40 + 500 x $1.60 per million tokens
    cost: 0.0012,
    unpricedModels: [],
  })
})

test('failed judge calls are counted apart, with every request they sent live', () => {
  const failed = (requests: number) => ({
    ...call('live', null),
    status: 'failed' as const,
    modelCallCount: requests,
    liveRequestCount: requests,
  })
  const summary = summariseRun(
    report(
      record({ status: 'error', judgeCalls: [failed(3)] }),
      record({ status: 'error', judgeCalls: [failed(3), failed(0)] }),
      record({ judgeCalls: [{ ...call('live'), liveRequestCount: 2 }] }),
    ),
    {},
  )
  expect(summary.judge).toMatchObject({ calls: 4, live: 1, failed: 3, liveRequests: 8 })
  expect(renderSummary(summary, plain)[1]).toBe(
    '      Judge  4 calls: 0 replayed, 1 live, 3 failed · 8 requests sent live · tokens 1,000 live, 0 replayed · cost $0.0005',
  )
})

test("the agents' calls of every file are summed, and shown only when there were some", () => {
  const base: RunReport = report(record({ judgeCalls: [call('replayed')] }))
  const withAgents: RunReport = {
    ...base,
    files: [
      ...base.files.map((file) => ({
        ...file,
        cassettes: {
          mode: 'replay' as const,
          dir: '/c',
          used: [],
          misses: [],
          agentCalls: { replayed: 3, recorded: 0, live: 0, failed: 1 },
        },
      })),
      {
        file: 'b.test.ts',
        tests: [],
        cassettes: {
          mode: 'auto' as const,
          dir: '/c',
          used: [],
          misses: [],
          agentCalls: { replayed: 1, recorded: 2, live: 1, failed: 0 },
        },
      },
    ],
  }
  const summary = summariseRun(withAgents, {})
  expect(summary.agents).toEqual({ calls: 8, replayed: 4, recorded: 2, live: 1, failed: 1 })
  expect(renderSummary(summary, plain)[2]).toBe(
    '     Agents  8 calls: 4 replayed, 3 live (2 recorded into cassettes), 1 failed',
  )
  expect(renderSummary(summariseRun(base, {}), plain)).toHaveLength(2)
})

test("the agents' tokens of every file are summed into the Agents line", () => {
  const base: RunReport = report(record({ judgeCalls: [call('replayed')] }))
  const file = (name: string, tokens: { live: number; replayed: number } | undefined) => ({
    file: name,
    tests: [],
    cassettes: {
      mode: 'auto' as const,
      dir: '/c',
      used: [],
      misses: [],
      agentCalls: { replayed: 1, recorded: 1, live: 0, failed: 0, ...(tokens ? { tokens } : {}) },
    },
  })
  const summary = summariseRun(
    {
      ...base,
      files: [
        ...base.files,
        file('a.test.ts', { live: 1200, replayed: 30 }),
        file('b.test.ts', undefined),
        file('c.test.ts', { live: 0, replayed: 70 }),
      ],
    },
    {},
  )
  expect(summary.agents.tokens).toEqual({ live: 1200, replayed: 100 })
  expect(renderSummary(summary, plain)[2]).toBe(
    '     Agents  6 calls: 3 replayed, 3 live (all recorded into cassettes) · tokens 1,200 live, 100 replayed',
  )
})

test('a match pattern that matched nothing, in a run with calls recorded only by their provider host, is reported', () => {
  const base: RunReport = report(record({ judgeCalls: [call('replayed')] }))
  const file = (
    name: string,
    patterns: { configured: string[]; matched: string[]; hostOnly: string[] },
  ) => ({
    file: name,
    tests: [],
    cassettes: { mode: 'auto' as const, dir: '/c', used: [], misses: [], patterns },
  })
  const withHostCalls = {
    ...base,
    files: [
      ...base.files,
      file('a.test.ts', {
        configured: [':predict', '/v1/rerank'],
        matched: ['/v1/rerank'],
        hostOnly: [],
      }),
      file('b.test.ts', {
        configured: [':predict', '/v1/rerank'],
        matched: [],
        hostOnly: ['api.cohere.com/v2/chat'],
      }),
    ],
  }
  const summary = summariseRun(withHostCalls, {})
  expect(summary.cassettes.unmatchedPatterns).toEqual({
    patterns: [':predict'],
    hostOnly: ['api.cohere.com/v2/chat'],
  })
  expect(renderSummary(summary, plain).at(-1)).toBe(
    '  Cassettes  cassettes.match pattern ":predict" matched no request, while calls to provider hosts matched none (api.cohere.com/v2/chat) (a string pattern ends the path after a / or a :; these calls were still recorded by their host)',
  )
  // Without such calls, an unused pattern is no sign of a mistake: nothing is said.
  const quiet = { ...withHostCalls, files: withHostCalls.files.slice(0, -1) }
  expect(summariseRun(quiet, {}).cassettes.unmatchedPatterns).toBeUndefined()
})

test('prices from options win over the built-in table, and unknown models are listed', () => {
  const summary = summariseRun(
    report(
      record({
        judgeCalls: [
          call('live', { input: 1_000_000, output: 0 }, 'openai/gpt-4.1-mini-2025-04-14'),
          call('live', { input: 10, output: 10 }, 'llama3.1'),
          call('replayed', { input: 10, output: 10 }, 'mystery'),
        ],
      }),
    ),
    { prices: { 'gpt-4.1-mini': { input: 1, output: 1 } } },
  )
  expect(summary.judge.cost).toBe(1)
  // Replayed calls cost nothing, so their model needs no price.
  expect(summary.judge.unpricedModels).toEqual(['llama3.1'])
})

test('renders the Rubric and Judge lines aligned like Vitest summary titles', () => {
  const summary = summariseRun(
    report(
      record({
        verdicts: [verdict('a', true), verdict('b', false, { required: false })],
        judgeCalls: [call('replayed', { input: 2000, output: 310 })],
      }),
      record({
        status: 'fail',
        verdicts: [verdict('c', false)],
        judgeCalls: [call('replayed')],
      }),
    ),
    {},
  )
  expect(renderSummary(summary, plain)).toEqual([
    ' Assertions  2 assertions: 1 passed, 1 failed, 0 errored · 3 criteria: 1 met, 1 required unmet, 1 optional unmet',
    '      Judge  2 calls: 2 replayed, 0 live · tokens 0 live, 3,310 replayed · cost $0.00',
  ])
})

test('the cost line says which models have no price', () => {
  const line = (models: string[], cost: number) =>
    renderSummary(
      {
        assertions: { total: 1, passed: 1, failed: 0, errored: 0 },
        criteria: { total: 0, met: 0, requiredUnmet: 0, optionalUnmet: 0 },
        judge: {
          calls: 1,
          replayed: 0,
          recorded: 0,
          live: 1,
          failed: 0,
          liveRequests: 1,
          tokens: { live: 10, replayed: 0 },
          cost,
          unpricedModels: models,
        },
        agents: { calls: 0, replayed: 0, recorded: 0, live: 0, failed: 0 },
        cassettes: { modes: [], misses: [] },
      },
      plain,
    )[1]
  expect(line(['llama3.1'], 0)).toBe(
    '      Judge  1 call: 0 replayed, 1 live · tokens 10 live, 0 replayed · cost unknown for "llama3.1" (no price: add it to the prices option of the rubricate plugin)',
  )
  expect(line(['a', 'b'], 0.5)).toContain(
    'cost $0.50 + unknown for "a", "b" (no price: add it to the prices option of the rubricate plugin)',
  )
})

test('cassette misses and unused entries get their own line; a run without rubricate prints nothing', () => {
  const empty: RunReport = { skippedTests: 0, files: [] }
  expect(renderSummary(summariseRun(empty, {}), plain)).toEqual([])
  expect(renderSummary(summariseRun(empty, { unused: 0 }), plain)).toEqual([])
  const misses: RunReport = {
    skippedTests: 0,
    files: ['a', 'b', 'c', 'd'].map((name) => ({
      file: `${name}.test.ts`,
      tests: [],
      cassettes: {
        mode: 'replay' as const,
        dir: '/c',
        used: [],
        misses: [{ key: 'k', endpoint: 'chat/completions', test: 'refund', message: 'm' }],
      },
    })),
  }
  expect(renderSummary(summariseRun(misses, { unused: 2 }), plain)).toEqual([
    '  Cassettes  4 misses in replay mode: a.test.ts > refund, b.test.ts > refund, c.test.ts > refund, and 1 more · 2 entries unused by this complete run (npx rubricate cassettes prune deletes unused entries)',
  ])
})

test('dollars show cents, or four decimals under a cent', () => {
  expect([0, 0.000123, 0.0123, 12.5].map(dollars)).toEqual(['$0.00', '$0.0001', '$0.01', '$12.50'])
})
