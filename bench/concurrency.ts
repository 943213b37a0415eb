// Figure 5 of ARCHITECTURE.md §10: many assertions at once against a slow judge. Rubric scorer runs are
// started together (as `test.concurrent` or `Promise.all` would), live, through the judge's
// transport, against a loopback judge that answers every request after a fixed latency; rubricate
// lets `judgeConcurrency` of them (8 by default) reach the judge at a time. The ideal wall time is
// ceil(calls / judgeConcurrency) * latency.
import { setTimeout as sleep } from 'node:timers/promises'
import { configureRubricate, createRubricScorer, resetRubricateConfig } from '../src'
import { resolveConfig } from '../src/config/resolve-config'
import { startFakeOpenAI } from '../src/testing'
import { keywordJudge } from '../test/support/keyword-judge'
import { median, round } from './measure'

/** Wall times in milliseconds. */
export interface ConcurrencyFigures {
  /** Median over runs of the time for every call to finish. */
  wallMs: number
  /** ceil(calls / judgeConcurrency) * latency. */
  idealMs: number
  /** `wallMs / idealMs`: the figure held against 1.3. */
  ratio: number
  /** Most requests the judge had in hand at once (must not exceed judgeConcurrency). */
  peakInFlight: number
  perRun: number[]
  calls: number
  latencyMs: number
  judgeConcurrency: number
  runs: number
}

/** Options of {@link benchConcurrency}. */
export interface ConcurrencyOptions {
  /** Default `100`. */
  calls?: number | undefined
  /** The judge's latency. Default `200`. */
  latencyMs?: number | undefined
  /** Default `3`. */
  runs?: number | undefined
}

const RUBRIC = '- Mentions refund\n- Mentions sorry\n- (optional) Mentions days'

/** Run the benchmark and return its medians. */
export async function benchConcurrency(
  options: ConcurrencyOptions = {},
): Promise<ConcurrencyFigures> {
  const calls = options.calls ?? 100
  const latencyMs = options.latencyMs ?? 200
  const runs = options.runs ?? 3
  let inFlight = 0
  let peakInFlight = 0
  // The latency is waited out in the reply, so that the requests the judge holds can be counted.
  const fake = await startFakeOpenAI({
    reply: async (request) => {
      inFlight++
      peakInFlight = Math.max(peakInFlight, inFlight)
      await sleep(latencyMs)
      inFlight--
      return keywordJudge(request)
    },
  })
  try {
    const judge = { model: 'gpt-4.1-mini', baseURL: fake.baseURL, apiKey: 'sk-bench-0000' }
    configureRubricate({ judge, cassettes: { mode: 'off' } })
    const { judgeConcurrency } = resolveConfig()
    const scorer = createRubricScorer({ criteria: RUBRIC })
    // Warm up once: the SDK is loaded and the first connection opened outside the timing.
    await scorer.run({ output: 'sorry, refund in 3 days' })
    peakInFlight = 0
    const perRun: number[] = []
    for (let run = 0; run < runs; run++) {
      const started = performance.now()
      const results = await Promise.all(
        Array.from({ length: calls }, (_, i) =>
          scorer.run({ output: `sorry, refund ${run}-${i} in 3 days` }),
        ),
      )
      perRun.push(performance.now() - started)
      if (results.some((result) => !result.passed)) {
        throw new Error('A concurrent rubric run did not pass against the keyword judge.')
      }
      fake.clearRequests()
    }
    const idealMs = Math.ceil(calls / judgeConcurrency) * latencyMs
    const wallMs = median(perRun)
    return {
      wallMs: round(wallMs, 1),
      idealMs,
      ratio: round(wallMs / idealMs, 3),
      peakInFlight,
      perRun: perRun.map((ms) => round(ms, 1)),
      calls,
      latencyMs,
      judgeConcurrency,
      runs,
    }
  } finally {
    resetRubricateConfig()
    await fake.close()
  }
}
