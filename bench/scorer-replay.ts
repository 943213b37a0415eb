// Figure 10 of ARCHITECTURE.md §10: a replayed rubric scorer run, outside Vitest. The scorer is
// recorded once against an instant loopback judge, then run again in replay mode: prompt, key,
// read, parse and validate of the reply, the verdicts and the score. `node bench/run.mjs
// scorer-replay` runs it on its own.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configureRubricate, createRubricScorer, resetRubricateConfig } from '../src'
import { startFakeOpenAI } from '../src/testing'
import { keywordJudge } from '../test/support/keyword-judge'
import { median, round } from './measure'

/** Medians in milliseconds per run. */
export interface ScorerReplayFigures {
  /** A replayed `createRubricScorer(...).run()`: median over batches of the batch medians. */
  scorerReplayMs: number
  /** Per batch medians. */
  perBatch: number[]
  runs: number
  batches: number
}

/** Options of {@link benchScorerReplay}. */
export interface ScorerReplayOptions {
  /** Batches, each measured on its own. Default `5`. */
  batches?: number | undefined
  /** Runs per batch, after a warm-up batch. Default `1000`. */
  runs?: number | undefined
}

const RUBRIC = '- Mentions refund\n- Mentions sorry\n- (optional) Mentions days'
const OUTPUT = 'sorry, your refund arrives in 3 days'

/** Run the benchmark and return its medians. */
export async function benchScorerReplay(
  options: ScorerReplayOptions = {},
): Promise<ScorerReplayFigures> {
  const batches = options.batches ?? 5
  const runs = options.runs ?? 1000
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-bench-scorer-'))
  const fake = await startFakeOpenAI({ reply: keywordJudge })
  try {
    const judge = { model: 'gpt-4.1-mini', baseURL: fake.baseURL, apiKey: 'sk-bench-0000' }
    configureRubricate({ judge, cassettes: { dir, mode: 'auto' } })
    const scorer = createRubricScorer({ criteria: RUBRIC })
    const recorded = await scorer.run({ output: OUTPUT })
    if (!recorded.passed) throw new Error('The instant judge did not pass the benchmark rubric.')
    await fake.close()
    configureRubricate({ judge, cassettes: { dir, mode: 'replay' } })
    const perBatch: number[] = []
    for (let batch = -1; batch < batches; batch++) {
      const times: number[] = []
      for (let i = 0; i < runs; i++) {
        const started = performance.now()
        const result = await scorer.run({ output: OUTPUT })
        times.push(performance.now() - started)
        if (result.judgeCalls[0]?.source !== 'replayed') {
          throw new Error('The benchmark scorer run was not replayed.')
        }
      }
      if (batch >= 0) perBatch.push(median(times))
    }
    return {
      scorerReplayMs: round(median(perBatch), 4),
      perBatch: perBatch.map((value) => round(value, 4)),
      runs,
      batches,
    }
  } finally {
    resetRubricateConfig()
    await fake.close()
    await rm(dir, { recursive: true, force: true })
  }
}
