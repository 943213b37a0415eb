import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import type { JudgeInput, Verdict } from '../records/records'
import type { ScorerConfig } from '../scorer/create-scorer'
import { runPipeline } from '../scorer/run-pipeline'
import type { StepDefinition } from '../scorer/step-internals'
import type { ScorerResult, ScorerRun, StepContext } from '../scorer/types'
import { type ParsedCriterion, parseCriteria, type RubricInput } from './criteria'
import {
  analyzeRubric,
  type RubricAnalysis,
  type RubricChoices,
  type RubricPlan,
} from './rubric-analysis'
import { RUBRIC_INSTRUCTIONS } from './rubric-prompt'
import { gatingVerdicts, NO_RUBRIC_REASON, rubricReason } from './rubric-reason'

export type { RubricAnalysis } from './rubric-analysis'

/** Options of a rubric scorer. */
export interface RubricScorerOptions {
  /** The score of a satisfied rubric. Default `1`. */
  scale?: number | undefined
  /** `'together'`: one judge call for the whole rubric; `'separately'`: one call per criterion, in parallel. Default `'together'`. */
  evaluation?: 'together' | 'separately' | undefined
  /** Judge every call this many times (seeds `1..n`) and take the majority per criterion. Default `1`. */
  samples?: number | undefined
  /**
   * `'all'`: the score is `scale` when every required criterion is met, else 0 (Mastra's rule).
   * `'fraction'`: partial credit. The score is `scale` times the weighted share of criteria met
   * (each criterion's `weight`, default 1), and the rubric passes when the share reaches
   * `threshold`; only criteria marked required (`required: true`, `(required)`) gate, and one of
   * them unmet makes the score 0. Default `'all'`.
   */
  scoring?: 'all' | 'fraction' | undefined
  /** With `scoring: 'fraction'`: the share (0 to 1) the rubric must reach to pass. Default `1`. */
  threshold?: number | undefined
}

/** Options of {@link createRubricScorer}. `model` (Mastra's name) and `judge` are aliases. */
export interface RubricScorerConfig {
  /** Default: the judge configured for the run. */
  judge?: JudgeInput | undefined
  /** Mastra's name for `judge`. */
  model?: JudgeInput | undefined
  /** Default: the rubric of each run (`requestContext.rubric`, `additionalContext.rubric`, `input.rubric`). */
  criteria?: RubricInput | undefined
  options?: RubricScorerOptions | undefined
}

/** The result of a rubric scorer's run: a scorer result plus the verdicts. */
export type RubricScorerResult = ScorerResult<any, any, undefined, RubricAnalysis> & {
  /** Every gating criterion is satisfied (the required ones, or all when none is required). */
  passed: boolean
  /** One per criterion, in rubric order; empty without a rubric. */
  verdicts: Verdict[]
  /** Set when no rubric was found: the run passed by default without calling the judge. */
  noRubric?: true | undefined
  /** With `scoring: 'fraction'`: the weighted share of criteria met, 0 to 1. */
  share?: number | undefined
  /** With `scoring: 'fraction'`: the share the rubric had to reach. */
  threshold?: number | undefined
}

/** A scorer that judges an output against a rubric. */
export interface RubricScorer {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly type: undefined
  readonly config: ScorerConfig
  /** Its scores' range, `[0, scale]`. */
  readonly range?: readonly [number, number] | undefined
  /** Judge one run. A judge failure rejects with `ScorerRunError` (step `analyze`). */
  run(run: ScorerRun): Promise<RubricScorerResult>
}

// The keys each options object accepts; anything else is a usage error naming the nearest one.
const CONFIG_KEYS = ['judge', 'model', 'criteria', 'options']
// `scoring` and `threshold` are partial credit's.
const OPTION_KEYS = ['scale', 'evaluation', 'samples', 'scoring', 'threshold']

/**
 * A scorer that judges an output against a rubric (compatible with Mastra's): each criterion gets
 * a verdict with reasoning; the score is `scale` when every required criterion is met, else 0.
 *
 * @example
 * const scorer = createRubricScorer({ judge: 'openai/gpt-4.1-mini', criteria: `
 *   - Acknowledges the double charge
 *   - (optional) Gives a timeframe for the refund
 * ` })
 * const { passed, verdicts, reason } = await scorer.run({ input: question, output: reply })
 */
export function createRubricScorer(config: RubricScorerConfig = {}): RubricScorer {
  checkObject('createRubricScorer()', config, CONFIG_KEYS)
  if (config.judge !== undefined && config.model !== undefined) {
    throw new UsageError(messages.rubricJudgeAndModel())
  }
  const options = config.options ?? {}
  checkObject('createRubricScorer() options', options, OPTION_KEYS)
  const choices = rubricOptions(options)
  let criteria: ParsedCriterion[] | undefined
  if (config.criteria !== undefined) {
    criteria = parseCriteria(config.criteria, 'createRubricScorer() criteria')
    if (criteria.length === 0) throw new UsageError(messages.rubricEmpty())
  }
  return rubricScorer(config.judge ?? config.model, criteria, choices)
}

/**
 * The rubric scorer of criteria parsed and options checked where it is made
 * (`createRubricScorer`, the matcher): its run neither parses nor validates again. Without a
 * `judge`, the configured one, resolved at each run; without `criteria`, each run's rubric.
 * @internal
 */
export function rubricScorer(
  judge: JudgeInput | undefined,
  criteria: ParsedCriterion[] | undefined,
  choices: RubricChoices,
): RubricScorer {
  const { scale, evaluation, samples, fraction, threshold } = choices
  const plan: RubricPlan = { criteria, evaluation, samples, fraction, threshold }
  const config: ScorerConfig = {
    id: 'rubric-scorer',
    name: 'Rubric (LLM)',
    description: 'Judges an output against a rubric: every required criterion must be met.',
    judge: { model: judge, instructions: RUBRIC_INSTRUCTIONS },
    type: undefined,
  }
  const steps = rubricSteps(plan, scale)
  return {
    id: config.id,
    name: config.name,
    description: config.description,
    type: undefined,
    config,
    // Its scores run from 0 to `scale`: declared, so the score contract holds them to it.
    range: [0, scale],
    // The verdicts and `passed` are on the result before it is recorded: a plain run's record
    // holds them, and is made once, by the pipeline.
    run: (run) => runPipeline(config, steps, run, withVerdicts(threshold)),
  }
}

type RubricContext = StepContext<any, any, undefined, RubricAnalysis>

// The pipeline's three function steps, as createScorer would chain them.
function rubricSteps(plan: RubricPlan, scale: number): StepDefinition[] {
  return [
    {
      name: 'analyze',
      kind: 'function',
      run: (context: RubricContext) => analyzeRubric(context, plan),
    },
    {
      name: 'generateScore',
      kind: 'function',
      run: ({ results }: RubricContext) => rubricScore(results.analyzeStepResult, scale),
    },
    {
      name: 'generateReason',
      kind: 'function',
      run: ({ results }: RubricContext) => {
        const analysis = results.analyzeStepResult
        if (analysis.noRubric) return NO_RUBRIC_REASON
        return rubricReason(analysis.verdicts, analysis.overallAssessment, plan.threshold)
      },
    },
  ]
}

function rubricScore(analysis: RubricAnalysis, scale: number): number {
  if (analysis.noRubric) return scale
  if (analysis.share === undefined) return analysis.passed ? scale : 0
  // A required criterion unmet gates the score too, so a threshold on it cannot pass.
  const gatesMet = gatingVerdicts(analysis.verdicts).every((verdict) => verdict.satisfied)
  return gatesMet ? analysis.share * scale : 0
}

// The scorer's result with the analysis's verdicts, `passed` and share on top.
function withVerdicts(threshold: number) {
  return (result: ScorerResult<any, any, undefined, RubricAnalysis>): RubricScorerResult => {
    const analysis = result.analyzeStepResult as RubricAnalysis
    if (analysis.noRubric) return { ...result, passed: true, verdicts: [], noRubric: true }
    const base = { ...result, passed: analysis.passed, verdicts: analysis.verdicts }
    return analysis.share === undefined ? base : { ...base, share: analysis.share, threshold }
  }
}

// A public options object: an object, with no key but the known ones.
function checkObject(where: string, value: unknown, known: readonly string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(messages.configNotObject(where, value))
  }
  rejectUnknownKeys(where, value, known)
}

/**
 * The values of a rubric scorer's options, checked, with their defaults: `createRubricScorer`'s
 * options, or the matcher's same-named ones (whose keys the matcher checked).
 * @internal
 */
export function rubricOptions(options: RubricScorerOptions): RubricChoices {
  const where = 'createRubricScorer() options'
  const { scale = 1, evaluation = 'together', samples = 1 } = options
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    throw new UsageError(messages.rubricBadScale(scale))
  }
  if (evaluation !== 'together' && evaluation !== 'separately') {
    throw new UsageError(
      messages.invalidChoice(`${where}.evaluation`, evaluation, ['together', 'separately']),
    )
  }
  if (!Number.isInteger(samples) || samples < 1) {
    throw new UsageError(messages.notPositiveInteger(`${where}.samples`, samples))
  }
  const { scoring = 'all', threshold } = options
  if (scoring !== 'all' && scoring !== 'fraction') {
    throw new UsageError(messages.invalidChoice(`${where}.scoring`, scoring, ['all', 'fraction']))
  }
  if (threshold !== undefined) {
    if (scoring !== 'fraction') throw new UsageError(messages.rubricThresholdWithoutFraction())
    if (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1)) {
      throw new UsageError(messages.rubricBadThreshold(threshold))
    }
  }
  return { scale, evaluation, samples, fraction: scoring === 'fraction', threshold: threshold ?? 1 }
}
