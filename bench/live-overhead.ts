// Figure 3 of ARCHITECTURE.md §10: what rubricate adds to a live judge call. A rubric scorer run (prompt,
// judge call through the official SDK and rubricate's transport with cassettes off, JSON
// extraction and validation, verdicts and reason) against an instant judge on loopback, next to
// a bare `openai` SDK call that sends the very same request to the same server. The two are
// interleaved call by call, so the machine's load weighs on both alike.
import OpenAI from 'openai'
import { configureRubricate, createRubricScorer, resetRubricateConfig } from '../src'
import { startFakeOpenAI } from '../src/testing'
import { keywordJudge } from '../test/support/keyword-judge'
import { median, round } from './measure'

/** Medians in milliseconds per call. */
export interface LiveOverheadFigures {
  /** A rubric scorer run, judge call included: median over batches of the batch medians. */
  rubricateMs: number
  /** The bare SDK sending the same request, likewise. */
  bareSdkMs: number
  /** Median over batches of (rubricate median - bare median): the figure held against 1 ms. */
  overheadMs: number
  /** CPU time of this process per call (server included, alike for both), for comparison. */
  rubricateCpuMs: number
  bareSdkCpuMs: number
  /** Per batch: [rubricate median, bare median] in ms. */
  perBatch: [number, number][]
  calls: number
  batches: number
}

/** Options of {@link benchLiveOverhead}. */
export interface LiveOverheadOptions {
  /** Batches, each measured on its own. Default `5`. */
  batches?: number | undefined
  /** Pairs of calls per batch, after a warm-up batch. Default `200`. */
  calls?: number | undefined
}

const RUBRIC = '- Mentions refund\n- Mentions sorry\n- (optional) Mentions days'
const OUTPUT = 'sorry, your refund arrives in 3 days'

/** Run the benchmark and return its medians. */
export async function benchLiveOverhead(
  options: LiveOverheadOptions = {},
): Promise<LiveOverheadFigures> {
  const batches = options.batches ?? 5
  const calls = options.calls ?? 200
  const fake = await startFakeOpenAI({ reply: keywordJudge })
  try {
    const judge = { model: 'gpt-4.1-mini', baseURL: fake.baseURL, apiKey: 'sk-bench-0000' }
    configureRubricate({ judge, cassettes: { mode: 'off' } })
    const scorer = createRubricScorer({ criteria: RUBRIC })
    const first = await scorer.run({ output: OUTPUT })
    if (!first.passed) throw new Error('The instant judge did not pass the benchmark rubric.')
    const sent = fake.requests.at(-1)
    if (!sent) throw new Error('The rubric scorer sent no request.')
    // The same request as the scorer's, sent by the SDK with its defaults (2 retries, as the judge).
    const params = JSON.parse(sent.bodyText)
    const bare = new OpenAI({ baseURL: fake.baseURL, apiKey: judge.apiKey })
    const rubricate = () => scorer.run({ output: OUTPUT })
    const sdk = () => bare.chat.completions.create(params)
    const perBatch: [number, number][] = []
    const cpu = { rubricate: 0, sdk: 0 }
    for (let batch = -1; batch < batches; batch++) {
      const times: [number[], number[]] = [[], []]
      for (let i = 0; i < calls; i++) {
        // Alternate which goes first, so neither always runs on a warmer connection or heap.
        for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const cpuBefore = process.cpuUsage()
          const started = performance.now()
          await (which === 0 ? rubricate() : sdk())
          times[which]?.push(performance.now() - started)
          const used = process.cpuUsage(cpuBefore)
          if (batch >= 0) cpu[which === 0 ? 'rubricate' : 'sdk'] += used.user + used.system
        }
      }
      fake.clearRequests()
      if (batch >= 0) perBatch.push([median(times[0]), median(times[1])])
    }
    return {
      rubricateMs: round(median(perBatch.map(([r]) => r)), 4),
      bareSdkMs: round(median(perBatch.map(([, b]) => b)), 4),
      overheadMs: round(median(perBatch.map(([r, b]) => r - b)), 4),
      rubricateCpuMs: round(cpu.rubricate / 1000 / (calls * batches), 4),
      bareSdkCpuMs: round(cpu.sdk / 1000 / (calls * batches), 4),
      perBatch: perBatch.map(([r, b]) => [round(r, 4), round(b, 4)]),
      calls,
      batches,
    }
  } finally {
    resetRubricateConfig()
    await fake.close()
  }
}
