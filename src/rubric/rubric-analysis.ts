import { runJudgeCall } from '../judge/judge-call'
import { outputText, taskText } from '../output'
import { conversationReplies } from '../output/conversation-output'
import { markedTranscriptKind } from '../output/transcript-lines'
import type { JudgeCall, Verdict } from '../records/records'
import { stepInternals } from '../scorer/step-internals'
import type { PreparedRun, StepContext } from '../scorer/types'
import { type ParsedCriterion, parseCriteria } from './criteria'
import { majorityVerdicts } from './majority'
import { type RubricReply, rubricReplySchema } from './reply-schema'
import { findRubric } from './resolve-rubric'
import {
  RUBRIC_INSTRUCTIONS,
  RUBRIC_PROMPT_VERSION,
  type RubricReferences,
  rubricPrompt,
} from './rubric-prompt'
import { gatingVerdicts, weightedShare } from './rubric-reason'

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

/**
 * A rubric scorer's options, checked once where the scorer is made (`createRubricScorer`, the
 * matcher), with their defaults: a run does not validate them again.
 * @internal
 */
export interface RubricChoices {
  /** The score of a satisfied rubric. */
  scale: number
  evaluation: 'together' | 'separately'
  samples: number
  /** `scoring: 'fraction'`: partial credit. */
  fraction: boolean
  threshold: number
}

/** What a rubric scorer's analyze step needs, fixed when the scorer is made. @internal */
export interface RubricPlan extends Omit<RubricChoices, 'scale'> {
  /** The criteria given when the scorer was made, parsed there; unset: each run's own rubric. */
  criteria: ParsedCriterion[] | undefined
}

/** The analyze step: the judge's verdict on each criterion, by majority over the samples. @internal */
export async function analyzeRubric(
  context: StepContext,
  plan: RubricPlan,
): Promise<RubricAnalysis> {
  const parsed = plan.criteria ?? runtimeCriteria(context.run)
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
  const judge = internals.judge()
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
        choices: internals.choices,
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
