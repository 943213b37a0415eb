// Group 10: the limits and the counts a user trusts to know what went live. A cost cap never
// lets a call through because its price is unknown or guessed from a cheaper model's, and every
// model call, the judge's and the agents', failed ones included, is counted in the summary.
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, onTestFinished, test } from 'vitest'
import { configureRubricate, resetRubricateConfig } from '../../src'
import { runtimeState } from '../../src/runtime/state'
import { type FakeReply, type FakeRequest, fakeReply, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { userMessage } from '../support/rubric-judge'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { failureOf, judgeRubric, judgeServer, SPLIT_VERDICT } from './support'

// Each case is a run of its own: the limits count per run, in the run's scratch folder.
beforeEach(() => {
  const root = tempDir('rubricate-limits-')
  mkdirSync(join(root, 'node_modules'))
  runtimeState().run.root = root
  runtimeState().run.runId = randomUUID()
})

afterEach(() => {
  resetRubricateConfig()
  runtimeState().run.root = undefined
  runtimeState().run.runId = undefined
})

const MILLION_IN = { usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } }

const unpriced = (model: string, max: number) =>
  linkedLimit(
    `[rubricate] Stopped a live judge call: maxCost ($${max}) is set, but the model "${model}" has no known price, so its cost could not be counted against the limit. Add its price in US dollars per million tokens to the prices option (configureRubricate or the plugin options), e.g. prices: { "${model}": { input: 0.5, output: 1.5 } }, or replay from cassettes with RUBRICATE_CASSETTES=replay.`,
  )

const spent = (dollars: string, max: number) =>
  linkedLimit(
    `[rubricate] Stopped a live judge call: live judge calls in this run are estimated at $${dollars}, which reaches maxCost ($${max}). Raise maxCost (configureRubricate or the plugin options) if the run is meant to cost that much, or replay from cassettes with RUBRICATE_CASSETTES=replay.`,
  )

function linkedLimit(message: string): string {
  return linked(message, 'limit')
}

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}

const isAgent = (request: FakeRequest) => request.body?.messages?.[0]?.content === 'AGENT'

/** A fake server for the fixture's agent (it says hello) and its judge (`judge` answers). */
async function agentAndJudge(judge: FakeReply) {
  const server = await startFakeOpenAI({
    reply: (request) => (isAgent(request) ? `Hello! You said ${userMessage(request)}.` : judge),
  })
  onTestFinished(() => server.close())
  const judged = () => server.requests.filter((request) => !isAgent(request)).length
  return { server, judged }
}

/** The fixture's summary lines (stdout), from `Rubric` to the line before Vitest's own. */
function summaryLines(stdout: string): string[] {
  const lines = stdout.split('\n')
  const start = lines.findIndex((line) => line.trim().startsWith('Assertions '))
  const end = lines.findIndex((line, i) => i > start && line.trim() === '')
  return lines.slice(start, end)
}

describe('10. Limits and counts', () => {
  test.for([
    { name: 'a self-hosted model', model: 'llama3.1:8b' },
    { name: 'an Azure deployment name', model: 'my-gpt4o-deployment' },
    { name: 'an OpenRouter model', model: 'meta-llama/llama-3.1-70b-instruct' },
    {
      name: 'a search model that only starts like a priced one',
      model: 'gpt-4o-mini-search-preview',
    },
    { name: 'a fine-tuned model', model: 'ft:gpt-4o-mini:acme::abc123' },
  ])(
    'maxCost with $name that has no known price stops the first live call, saying to add the price',
    async ({ model }) => {
      configureRubricate({ maxCost: 0.000001 })
      const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT, MILLION_IN), {
        model,
      })
      const { root } = await failureOf(judgeRubric(judge))
      expect(root).toMatchObject({ code: 'RUBRICATE_LIMIT', message: unpriced(model, 0.000001) })
      expect(server.requests).toHaveLength(0)
    },
  )

  test('maxCost counts a model whose price is given in prices, and stops the call past the cap', async () => {
    configureRubricate({ maxCost: 0.5, prices: { 'llama3.1:8b': { input: 0.3, output: 0.3 } } })
    const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT, MILLION_IN), {
      model: 'llama3.1:8b',
    })
    await judgeRubric(judge)
    await judgeRubric(judge)
    const { root } = await failureOf(judgeRubric(judge))
    expect(root).toMatchObject({ code: 'RUBRICATE_LIMIT', message: spent('0.6000', 0.5) })
    expect(server.requests).toHaveLength(2)
  })

  test.for([
    { model: 'o3-pro', input: '20.0000' },
    { model: 'o3-pro-2025-06-10', input: '20.0000' },
    { model: 'gpt-5-pro', input: '15.0000' },
    { model: 'o3-deep-research', input: '10.0000' },
    { model: 'o4-mini-deep-research-2025-06-26', input: '2.0000' },
    { model: 'gpt-4o-2024-05-13', input: '5.0000' },
    { model: 'gpt-4o-2024-08-06', input: '2.5000' },
    { model: 'gpt-4.1-mini-2025-04-14', input: '0.4000' },
    { model: 'openai/gpt-4.1', input: '2.0000' },
  ])(
    'maxCost prices $model at its own list price, not at a cheaper model it starts like',
    async ({ model, input }) => {
      configureRubricate({ maxCost: 0.000001 })
      const { judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT, MILLION_IN), { model })
      await judgeRubric(judge)
      const { root } = await failureOf(judgeRubric(judge))
      // One million input tokens: the estimate is the model's input price per million.
      expect(root).toMatchObject({ code: 'RUBRICATE_LIMIT', message: spent(input, 0.000001) })
    },
  )

  test('failed judge calls are in the summary and the JSON report, with every request they sent', {
    timeout: 60_000,
  }, async () => {
    const { server, judged } = await agentAndJudge(fakeReply.status(503, { retryAfter: 0 }))
    const reportFile = join(tempDir('rubricate-report-'), 'report.json')
    const run = await runVitest('reliability-limits', [`--outputFile.rubricate=${reportFile}`], {
      env: { FAKE_OPENAI_URL: server.baseURL },
    })
    expect(run.exitCode).toBe(1)
    // Three assertions, each one call of three requests (two retries), every one of them failed.
    expect(judged()).toBe(9)
    expect(summaryLines(run.stdout)).toEqual([
      ' Assertions  3 assertions: 0 passed, 0 failed, 3 errored',
      '      Judge  3 calls: 0 replayed, 0 live, 3 failed · 9 requests sent live · tokens 0 live, 0 replayed · cost $0.00',
      '     Agents  3 calls: 0 replayed, 3 live',
    ])
    const report = JSON.parse(readFileSync(reportFile, 'utf8'))
    expect(report.summary.judge).toMatchObject({ calls: 3, failed: 3, liveRequests: 9 })
    expect(report.summary.agents).toEqual({
      calls: 3,
      replayed: 0,
      recorded: 0,
      live: 3,
      failed: 0,
    })
  })

  test('the requests the summary counts are those maxLiveCalls stopped at', {
    timeout: 60_000,
  }, async () => {
    const { server, judged } = await agentAndJudge(fakeReply.status(503, { retryAfter: 0 }))
    const run = await runVitest('reliability-limits', [], {
      env: { FAKE_OPENAI_URL: server.baseURL, MAX_LIVE_CALLS: '4' },
    })
    expect(judged()).toBe(4)
    expect(run.stdout).toContain('RUBRICATE_LIMIT: Stopped a live judge call')
    expect(summaryLines(run.stdout)[1]).toBe(
      '      Judge  3 calls: 0 replayed, 0 live, 3 failed · 4 requests sent live · tokens 0 live, 0 replayed · cost $0.00',
    )
  })

  test('a replayed run shows that neither the judge nor the agents went live', {
    timeout: 90_000,
  }, async () => {
    const { server } = await agentAndJudge(fakeReply.json(GREETS))
    const root = await copyFixture('reliability-limits')
    onTestFinished(() => removeCopy(root))
    const env = { FAKE_OPENAI_URL: server.baseURL }
    const recording = await runVitest(root, [], { env: { ...env, RUBRICATE_CASSETTES: 'auto' } })
    expect(recording.exitCode).toBe(0)
    expect(summaryLines(recording.stdout).slice(1)).toEqual([
      '      Judge  3 calls: 0 replayed, 3 live (all recorded into cassettes) · tokens 1,536 live, 0 replayed · cost $0.0007',
      '     Agents  3 calls: 0 replayed, 3 live (all recorded into cassettes) · tokens 99 live, 0 replayed',
    ])
    const sent = server.requests.length
    const replaying = await runVitest(root, [], { env: { ...env, RUBRICATE_CASSETTES: 'replay' } })
    expect(replaying.exitCode).toBe(0)
    expect(server.requests).toHaveLength(sent)
    expect(summaryLines(replaying.stdout).slice(1)).toEqual([
      '      Judge  3 calls: 3 replayed, 0 live · tokens 0 live, 1,536 replayed · cost $0.00',
      '     Agents  3 calls: 3 replayed, 0 live · tokens 0 live, 99 replayed',
    ])
  })
})
