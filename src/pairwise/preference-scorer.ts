import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { runJudgeCall } from '../judge/judge-call'
import { messages } from '../messages'
import { outputText, taskText } from '../output'
import type { JudgeCall, JudgeInput } from '../records/records'
import { createScorer, type ScorerConfig } from '../scorer/create-scorer'
import { stepInternals } from '../scorer/step-internals'
import type { PreparedRun, ScorerResult, ScorerRun } from '../scorer/types'
import {
  PAIRWISE_INSTRUCTIONS,
  PAIRWISE_PROMPT_VERSION,
  type PairwiseReply,
  pairwisePrompt,
  pairwiseReplySchema,
} from './pairwise-prompt'

/** Where the output to beat comes from: a text, or a function of the run (see `baselineFrom`). */
export type BaselineInput = string | ((run: ScorerRun) => unknown)

/** Options of {@link createPreferenceScorer}. */
export interface PreferenceScorerConfig {
  /** What "better" means, e.g. `'More helpful, accurate and concise'`. */
  criteria: string
  /** The output to beat. Default: the run's `groundTruth` (a `describeEval` row's `expected`). */
  baseline?: BaselineInput | undefined
  /** Default: the judge configured for the run. */
  judge?: JudgeInput | undefined
  /** A tie passes too. Default `false`: the output must be preferred. */
  allowTie?: boolean | undefined
}

/** Which output one order's judgement preferred. */
export interface PreferenceOrder {
  /** Which output was shown first, as "A". */
  first: 'output' | 'baseline'
  preferred: 'output' | 'baseline' | 'tie'
  reasoning: string
}

/** The result of a preference scorer: 1 preferred, 0.5 tie, 0 the baseline preferred. */
export type PreferenceScorerResult = ScorerResult & {
  score: number
  passed: boolean
  /** The outcome: counted only when both orders agree, a tie otherwise. */
  preference: 'output' | 'baseline' | 'tie'
  /** The two judgements: the output shown first, then the baseline shown first. */
  orders: [PreferenceOrder, PreferenceOrder]
}

/** A pairwise preference scorer. */
export interface PreferenceScorer {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly type: undefined
  readonly config: ScorerConfig
  run(run: ScorerRun): Promise<PreferenceScorerResult>
}

const KEYS = ['criteria', 'baseline', 'judge', 'allowTie']

/**
 * Pairwise preference: the judge compares the output with a baseline against the same criteria,
 * twice, with the order swapped. A preference counts only when both orders agree; otherwise (or
 * when the judge calls it a tie) it is a tie. Score 1 (output preferred), 0.5 (tie) or 0
 * (baseline preferred); it passes when the output is preferred (or ties, with `allowTie`).
 *
 * @example
 * const better = createPreferenceScorer({ criteria: 'More helpful and accurate', baseline: oldReply })
 * const { preference, orders } = await better.run({ input: question, output: newReply })
 */
export function createPreferenceScorer(config: PreferenceScorerConfig): PreferenceScorer {
  const where = 'createPreferenceScorer()'
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject(where, config))
  }
  rejectUnknownKeys(where, config, KEYS)
  if (typeof config.criteria !== 'string' || config.criteria.trim() === '') {
    throw new UsageError(messages.preferenceNoCriteria(where, config.criteria))
  }
  const criteria = config.criteria.trim()
  const inner = createScorer({
    id: 'pairwise-preference',
    name: 'Pairwise preference',
    description: 'Compares the output with a baseline, asking twice with the order swapped.',
    judge: { model: config.judge, instructions: PAIRWISE_INSTRUCTIONS },
  })
    .analyze(async (context) => {
      const internals = stepInternals(context)
      const output = outputText(context.run.output)
      const baseline = await baselineOf(where, config.baseline, context.run)
      const task = context.run.input === undefined ? undefined : taskText(context.run.input)
      const judge = internals.judge()
      const calls: (JudgeCall | undefined)[] = []
      const ask = (slot: number, a: string, b: string) =>
        runJudgeCall({
          judge,
          step: internals.step,
          choices: internals.choices,
          system: PAIRWISE_INSTRUCTIONS,
          prompt: pairwisePrompt(criteria, task === '' ? undefined : task, a, b),
          output: pairwiseReplySchema(),
          schemaName: 'pairwise_preference',
          promptVersion: PAIRWISE_PROMPT_VERSION,
          record: (call) => {
            calls[slot] = call
          },
        }).then(({ value }) => value as PairwiseReply)
      const settled = await Promise.allSettled([ask(0, output, baseline), ask(1, baseline, output)])
      // Recorded in request order, whichever answered first.
      for (const call of calls) if (call) internals.recordJudgeCall(call)
      const failed = settled.find((outcome) => outcome.status === 'rejected')
      if (failed) throw failed.reason
      const [outputFirst, baselineFirst] = settled.map(
        (outcome) => (outcome as PromiseFulfilledResult<PairwiseReply>).value,
      ) as [PairwiseReply, PairwiseReply]
      const orders: [PreferenceOrder, PreferenceOrder] = [
        {
          first: 'output',
          preferred: side(outputFirst.preferred, 'output'),
          reasoning: outputFirst.reasoning,
        },
        {
          first: 'baseline',
          preferred: side(baselineFirst.preferred, 'baseline'),
          reasoning: baselineFirst.reasoning,
        },
      ]
      const preference = orders[0].preferred === orders[1].preferred ? orders[0].preferred : 'tie'
      return { orders, preference }
    })
    .generateScore(({ results }) => {
      const { preference } = results.analyzeStepResult
      return preference === 'output' ? 1 : preference === 'tie' ? 0.5 : 0
    })
    .generateReason(({ results }) =>
      messages.preferenceReason(
        results.analyzeStepResult.preference,
        results.analyzeStepResult.orders,
      ),
    )
  return {
    id: inner.id,
    name: inner.name,
    description: inner.description,
    type: undefined,
    config: inner.config,
    run: async (run) => {
      const result = await inner.run(run)
      const { orders, preference } = result.analyzeStepResult as {
        orders: [PreferenceOrder, PreferenceOrder]
        preference: PreferenceScorerResult['preference']
      }
      const passed = preference === 'output' || (preference === 'tie' && config.allowTie === true)
      return { ...result, score: result.score as number, passed, preference, orders }
    },
  }
}

// "A" is whichever was shown first.
function side(
  answer: PairwiseReply['preferred'],
  first: 'output' | 'baseline',
): PreferenceOrder['preferred'] {
  if (answer === 'tie') return 'tie'
  const second = first === 'output' ? 'baseline' : 'output'
  return answer === 'A' ? first : second
}

async function baselineOf(
  where: string,
  given: BaselineInput | undefined,
  run: PreparedRun,
): Promise<string> {
  const value = typeof given === 'function' ? await given(run) : (given ?? run.groundTruth)
  if (value === undefined || value === null)
    throw new UsageError(messages.preferenceNoBaseline(where))
  return outputText(value)
}
