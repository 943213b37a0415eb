import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { runJudgeCall } from '../judge/judge-call'
import { messages } from '../messages'
import { outputText, taskText } from '../output'
import { conversationReplies } from '../output/conversation-output'
import { markedTranscriptKind } from '../output/transcript-lines'
import type { JudgeCall, JudgeInput, Verdict } from '../records/records'
import { resolveJudge } from '../runtime/runtime'
import { createScorer, type ScorerConfig } from '../scorer/create-scorer'
import { recordedRun } from '../scorer/run-pipeline'
import { stepInternals } from '../scorer/step-internals'
import type { PreparedRun, ScorerResult, ScorerRun, StepContext } from '../scorer/types'
import { type ParsedCriterion, parseCriteria, type RubricInput } from './criteria'
import { majorityVerdicts } from './majority'
import { type RubricReply, rubricReplySchema } from './reply-schema'
import { findRubric } from './resolve-rubric'
import {
  RUBRIC_INSTRUCTIONS,
  RUBRIC_PROMPT_VERSION,
  type RubricReferences,
  rubricPrompt,
} from './rubric-prompt'
import { gatingVerdicts, NO_RUBRIC_REASON, rubricReason, weightedShare } from './rubric-reason'

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

/** What the analyze step of a rubric scorer produces. */
export type RubricAnalysis =
  | { noRubric: true }
  | {
      noRubric: false
      passed: boolean
      verdicts: Verdict[]
      overallAssessment?: string | undefined
      /** With `scoring: 'fraction'`: the weighted share of criteria met, 0 to 1. */
      share?: number | undefined
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
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject('createRubricScorer()', config))
  }
  rejectUnknownKeys('createRubricScorer()', config, CONFIG_KEYS)
  if (config.judge !== undefined && config.model !== undefined) {
    throw new UsageError(messages.rubricJudgeAndModel())
  }
  const judgeInput = config.judge ?? config.model
  const { scale, evaluation, samples, scoring, threshold } = validateOptions(config.options ?? {})
  let fixed: ParsedCriterion[] | undefined
  if (config.criteria !== undefined) {
    fixed = parseCriteria(config.criteria, 'createRubricScorer() criteria')
    if (fixed.length === 0) throw new UsageError(messages.rubricEmpty())
  }
  const plan: RubricPlan = {
    judgeInput,
    fixed,
    evaluation,
    samples,
    fraction: scoring === 'fraction',
    threshold,
  }
  const inner = createScorer({
    id: 'rubric-scorer',
    name: 'Rubric (LLM)',
    description: 'Judges an output against a rubric: every required criterion must be met.',
    judge: { model: judgeInput, instructions: RUBRIC_INSTRUCTIONS },
  })
    .analyze((context) => analyzeRubric(context, plan))
    .generateScore(({ results }) => rubricScore(results.analyzeStepResult, scale))
    .generateReason(({ results }) => {
      const analysis = results.analyzeStepResult
      if (analysis.noRubric) return NO_RUBRIC_REASON
      return rubricReason(analysis.verdicts, analysis.overallAssessment, threshold)
    })
  return {
    id: inner.id,
    name: inner.name,
    description: inner.description,
    type: undefined,
    config: inner.config,
    // Its scores run from 0 to `scale`: declared, so the score contract holds them to it.
    range: [0, scale],
    // Recorded as a whole, so a plain run's record holds `passed` and the verdicts.
    run: (run) => recordedRun(inner.id, run, () => inner.run(run).then(withVerdicts(threshold))),
  }
}

/** What a rubric scorer's analyze step needs, fixed when the scorer is created. */
interface RubricPlan {
  judgeInput: JudgeInput | undefined
  /** The criteria given to `createRubricScorer`, else each run's own. */
  fixed: ParsedCriterion[] | undefined
  evaluation: 'together' | 'separately'
  samples: number
  fraction: boolean
  threshold: number
}

async function analyzeRubric(context: StepContext, plan: RubricPlan): Promise<RubricAnalysis> {
  const parsed = plan.fixed ?? runtimeCriteria(context.run)
  if (parsed.length === 0) return { noRubric: true }
  // Under partial credit only criteria marked required gate, and the judge is told so.
  const criteria = plan.fraction
    ? parsed.map((criterion) => ({ ...criterion, required: criterion.markedRequired }))
    : parsed
  const groups =
    plan.evaluation === 'separately' ? criteria.map((criterion) => [criterion]) : [criteria]
  const replies = await judgeGroups(context, plan, groups)
  const perGroup = replies.length / groups.length
  const verdicts = groups.flatMap((group, groupIndex) => {
    const groupReplies = replies.slice(groupIndex * perGroup, (groupIndex + 1) * perGroup)
    return majorityVerdicts(groupReplies.map((reply) => toVerdicts(group, reply, plan.fraction)))
  })
  const gatesMet = gatingVerdicts(verdicts).every((verdict) => verdict.satisfied)
  const share = plan.fraction ? weightedShare(verdicts) : undefined
  return {
    noRubric: false,
    passed: gatesMet && (share === undefined || share >= plan.threshold),
    verdicts,
    overallAssessment: plan.evaluation === 'separately' ? undefined : replies[0]?.overallAssessment,
    ...(share === undefined ? {} : { share }),
  }
}

// One judge call per group and sample, the replies in that order.
function judgeGroups(
  context: StepContext,
  plan: RubricPlan,
  groups: readonly ParsedCriterion[][],
): Promise<RubricReply[]> {
  const internals = stepInternals(context)
  const task = taskText(context.run.input)
  const output = outputText(context.run.output)
  // A conversation or a trajectory: the judge is told where its structure and its data lie.
  const transcript = conversationReplies(context.run.output)
    ? 'conversation'
    : markedTranscriptKind(context.run.output)
  const references = referencesOf(context.run)
  const judge = resolveJudge(plan.judgeInput)
  const seeds =
    plan.samples > 1 ? Array.from({ length: plan.samples }, (_, index) => index + 1) : [undefined]
  const calls: (JudgeCall | undefined)[] = []
  const jobs = groups.flatMap((group, groupIndex) =>
    seeds.map((seed, seedIndex) => {
      const slot = groupIndex * seeds.length + seedIndex
      // In a group of its own, a criterion is listed as c1: the reply schema is per group.
      const listed = group.map((criterion, index) => ({ ...criterion, id: `c${index + 1}` }))
      return runJudgeCall({
        judge,
        step: internals.step,
        cassetteMode: internals.choices.cassetteMode,
        system: RUBRIC_INSTRUCTIONS,
        prompt: rubricPrompt(listed, task, output, references, transcript),
        output: rubricReplySchema(listed.length),
        schemaName: 'rubric_verdicts',
        seed,
        promptVersion: RUBRIC_PROMPT_VERSION,
        record: (call) => {
          calls[slot] = call
        },
      }).then(({ value }) => value as RubricReply)
    }),
  )
  return settleAll(jobs, () => {
    // Recorded in request order, not completion order, so records are stable from run to run.
    for (const call of calls) if (call) internals.recordJudgeCall(call)
  })
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

/**
 * Every job's value once all have settled, `settled()` told first; the first failure, in job
 * order, is thrown. One job (most assertions) is awaited as it is, without `allSettled`'s promises.
 */
function settleAll<T>(jobs: Promise<T>[], settled: () => void): Promise<T[]> {
  // One promise for one job, not an async function's and its await's (with async hooks on, as
  // AsyncLocalStorage has them in Node 20, every await makes a promise of its own).
  if (jobs.length === 1) {
    return (jobs[0] as Promise<T>).then(
      (value) => {
        settled()
        return [value]
      },
      (error: unknown) => {
        settled()
        throw error
      },
    )
  }
  return Promise.allSettled(jobs).then((outcomes) => {
    settled()
    const failure = outcomes.find((outcome) => outcome.status === 'rejected')
    if (failure) throw failure.reason
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value)
  })
}

// The reference answer is the run's `groundTruth`; the context its `additionalContext.context`.
// Both are judged as text the way outputs are (strings as they are, objects as JSON).
function referencesOf(run: PreparedRun): RubricReferences {
  const references: RubricReferences = {}
  if (run.groundTruth !== undefined && run.groundTruth !== null) {
    references.reference = outputText(run.groundTruth)
  }
  const context = run.additionalContext?.context
  if (context !== undefined && context !== null) references.context = outputText(context)
  return references
}

function runtimeCriteria(run: PreparedRun): ParsedCriterion[] {
  const found = findRubric(run)
  if (!found) return []
  // An empty runtime rubric means "nothing to check" (as in Mastra), not a mistake.
  if (typeof found.value === 'string' && found.value.trim() === '') return []
  return parseCriteria(found.value, found.where)
}

function toVerdicts(
  group: readonly ParsedCriterion[],
  reply: RubricReply,
  fraction: boolean,
): Verdict[] {
  return group.map((criterion, index) => {
    const verdict = reply.criteria[`c${index + 1}`] as RubricReply['criteria'][string]
    // criterion, required and weight come from the rubric, never from the judge.
    const out: Verdict = {
      id: criterion.id,
      criterion: criterion.description,
      required: criterion.required,
      satisfied: verdict.satisfied,
      reasoning: verdict.reasoning,
    }
    if (fraction) out.weight = criterion.weight
    return out
  })
}

function validateOptions(options: RubricScorerOptions): {
  scale: number
  evaluation: 'together' | 'separately'
  samples: number
  scoring: 'all' | 'fraction'
  threshold: number
} {
  const where = 'createRubricScorer() options'
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(messages.configNotObject(where, options))
  }
  rejectUnknownKeys(where, options, OPTION_KEYS)
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
  return { scale, evaluation, samples, scoring, threshold: threshold ?? 1 }
}
