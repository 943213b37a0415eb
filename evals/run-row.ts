// One row of an eval, as its test runs it: the task once per trial (each trial's model calls keyed
// apart), every scorer on each output through rubricate's matchers (so the verdicts, the records
// and the reporter's lines are those of any other assertion), then the row's verdict.
import type { TestContext } from 'vitest'
import { isScorer } from '../matchers/check-options'
import { EVAL_ASSERTION, type EvalAssertion } from '../matchers/eval-assertion'
import type { ScorerLike } from '../matchers/types'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { outputText } from '../src/output'
import { conversationOutput } from '../src/output/conversation-output'
import type { EvalRowRecord, EvalTrialRecord } from '../src/records/eval-records'
import type { RubricateRecord } from '../src/records/records'
import { withCallContext } from '../src/runtime/call-context'
import { pointAt } from './call-site'
import type { NormalisedScorer } from './eval-scorer'
import { type HeldConversation, holdConversation } from './run-conversation'
import type { DescribeEvalOptions, EvalRow, SimulatedUserOptions } from './types'

/** Everything a row's test needs. @internal */
export interface RowPlan {
  suite: string
  name: string
  row: EvalRow
  task: (row: EvalRow, conversation: unknown) => unknown
  criteria: DescribeEvalOptions['criteria']
  turnCriteria: DescribeEvalOptions['turnCriteria']
  simulatedUser: SimulatedUserOptions | undefined
  scorers: readonly NormalisedScorer[]
  threshold: number | undefined
  trials: number
  trialPassRate: number
  passRate: number
  /** Where describeEval was called: the frames of the failures rubricate raises for the row. */
  callSite: Error
}

/** The row's record, and the error its test fails with (none: the test passes). @internal */
export interface RowOutcome {
  record: EvalRowRecord
  error?: unknown
}

type Assertions = {
  toSatisfyRubric(criteria: unknown, options?: unknown): Promise<void>
  toPassScorer(scorer: unknown, options?: unknown): Promise<void>
}

/** Run one row: its trials, its verdict, and whether its test fails. @internal */
export async function runRow(plan: RowPlan, context: TestContext): Promise<RowOutcome> {
  const expect = context.expect as unknown as (value: unknown) => Assertions
  if (typeof expect(undefined).toSatisfyRubric !== 'function') {
    throw new UsageError(messages.evalNeedsSetup())
  }
  const trials: EvalTrialRecord[] = []
  let failure: unknown
  let error: unknown
  let errored = false
  for (let trial = 1; trial <= plan.trials && !errored; trial++) {
    // The trial's number is part of the cassette key only when there are several, so a row run
    // once keys its calls as any test does. Ambient: the task's own HTTP calls are keyed with it.
    const outcome = await withCallContext({ trial: plan.trials > 1 ? trial : undefined }, () =>
      runTrial(plan, context, expect),
    )
    if (outcome.errored) {
      errored = true
      error = outcome.error
    }
    if (outcome.trial) trials.push(outcome.trial)
    if (outcome.trial && !outcome.trial.passed && failure === undefined) failure = outcome.failure
  }
  const passedTrials = trials.filter((trial) => trial.passed).length
  // Compared on counts, so that 2 of 3 trials against a rate of 2/3 is not lost to rounding.
  const passed = !errored && passedTrials >= Math.ceil(plan.trialPassRate * plan.trials - 1e-9)
  const record: EvalRowRecord = {
    v: 1,
    suite: plan.suite,
    passed,
    errored,
    tolerated: !passed && !errored && plan.passRate < 1,
    trials,
    trialPassRate: plan.trialPassRate,
    passRate: plan.passRate,
  }
  if (errored) return { record, error }
  if (passed || plan.passRate < 1) return { record }
  if (plan.trials === 1) return { record, error: failure }
  const summary = messages.evalRowTrialsFailed(passedTrials, plan.trials, plan.trialPassRate)
  const detail = failure instanceof Error ? failure.message : String(failure)
  return {
    record,
    error: pointAt(new Error(`${summary}\n\n${detail}`, { cause: failure }), plan.callSite),
  }
}

interface TrialOutcome {
  /** Absent when the trial could not be judged (the task threw). */
  trial?: EvalTrialRecord | undefined
  /** The first failing assertion's error, for a trial that failed. */
  failure?: unknown
  errored: boolean
  error?: unknown
}

async function runTrial(
  plan: RowPlan,
  context: TestContext,
  expect: (value: unknown) => Assertions,
): Promise<TrialOutcome> {
  const { row } = plan
  const scores: Record<string, number> = {}
  let passed = true
  let failure: unknown
  let judged = 0
  let stopped: TrialOutcome | undefined
  const take = (id: string | undefined, settled: Settled): TrialOutcome | undefined => {
    if (settled.status === 'error') return { errored: true, error: settled.thrown }
    judged++
    // A turn's check decides the trial but is no scorer of the suite: no mean of its own.
    if (id !== undefined) scores[id] = settled.score
    if (settled.status === 'fail') {
      passed = false
      failure ??= settled.thrown
    }
    return undefined
  }
  let output: unknown
  let held: HeldConversation | undefined
  const conversational = row.turns !== undefined || plan.simulatedUser !== undefined
  try {
    if (conversational) {
      held = await holdConversation(
        row,
        plan.task,
        plan.simulatedUser,
        async (turn, user, reply, scripted) => {
          if (stopped) return undefined
          const rubrics = [scripted?.criteria, plan.turnCriteria].filter((one) => one !== undefined)
          if (rubrics.length === 0) return undefined
          let turnPassed = true
          for (const rubric of rubrics) {
            const settled = await settle(context, plan.callSite, () =>
              expect(reply).toSatisfyRubric(rubric, {
                input: user,
                ...(scripted?.expected !== undefined ? { expected: scripted.expected } : {}),
                // The matcher puts the turn on its record (and its annotations) as it stores it.
                ...inRow(plan, turn),
              }),
            )
            stopped = take(undefined, settled)
            if (stopped) return undefined
            if (settled.status === 'fail') turnPassed = false
          }
          return turnPassed
        },
        context.signal,
      )
      // The messages of every turn, marked with the replies: the judged text is the transcript,
      // and a trajectory scorer reads the calls of every turn.
      output = conversationOutput(held.messages, held.replies)
    } else {
      output = await plan.task(row, {
        turn: 1,
        input: row.input,
        // Read only by a task that asks: most single-turn tasks never look.
        get messages() {
          return [{ role: 'user', content: outputText(row.input) }]
        },
      })
    }
  } catch (error) {
    return { errored: true, error }
  }
  if (stopped) return stopped
  // The whole conversation: its rubric and its scorers read every turn.
  const conversationInput = held ? (row.goal ?? held.messages[0]?.content) : row.input
  const groundTruth = row.groundTruth !== undefined ? row.groundTruth : row.expected
  const scorerOptions = (scorer: NormalisedScorer) => {
    const threshold = scorer.threshold ?? plan.threshold
    return {
      input: conversationInput,
      ...(groundTruth !== undefined ? { groundTruth } : {}),
      // The row's retrieved context, for the scorers that judge against it (grounding).
      ...(row.context !== undefined ? { context: row.context } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      ...(scorer.direction === 'max' ? { direction: 'max' } : {}),
      ...(scorer.range ? { range: scorer.range } : {}),
    }
  }
  if (plan.criteria !== undefined) {
    const criteria = plan.criteria
    const rubric =
      typeof criteria === 'function' && !isScorer(criteria)
        ? (criteria as (row: EvalRow) => unknown)(row)
        : criteria
    const stop = take(
      'rubric',
      await settle(context, plan.callSite, () =>
        // The row's `expected` is the judge's reference answer, fenced as data. Only when the row
        // has one: a request without it is the one recorded before, so its key is unchanged.
        expect(output).toSatisfyRubric(rubric, {
          input: conversationInput,
          ...(row.expected !== undefined ? { expected: row.expected } : {}),
          ...inRow(plan),
        }),
      ),
    )
    if (stop) return stop
  }
  for (const scorer of plan.scorers) {
    let target: ScorerLike
    if (scorer.kind === 'scorer') {
      target = scorer.scorer
    } else {
      const args = {
        input: row.input,
        output,
        expected: row.expected,
        groundTruth: row.groundTruth,
        context: row.context,
        row,
      }
      let computed: Awaited<ReturnType<typeof scorer.score>>
      let thrown: unknown
      let threw = false
      try {
        computed = await scorer.score(args)
      } catch (error) {
        threw = true
        thrown = error
        computed = null
      }
      if (!threw && computed === null) continue
      // The score is already known; toPassScorer records it (or the scorer's error) like any
      // other scorer's, so the reporter, the reports and the failure message treat it the same.
      const result = computed
      target = {
        id: scorer.id,
        run: async () => {
          if (threw) throw thrown
          return { score: result!.score, reason: result!.reason }
        },
      }
    }
    const stop = take(
      scorer.id,
      await settle(context, plan.callSite, () =>
        expect(output).toPassScorer(target, { ...scorerOptions(scorer), ...inRow(plan) }),
      ),
    )
    if (stop) return stop
  }
  if (judged === 0)
    return {
      errored: true,
      error: pointAt(new UsageError(messages.evalRowUnscored(plan.name)), plan.callSite),
    }
  return {
    trial: { passed, scores, ...(held ? { conversation: held.record } : {}) },
    failure,
    errored: false,
  }
}

/**
 * The options that tell a matcher it judges this row (and turn): a score that breaks the contract
 * names the row, a turn's record names its turn.
 */
function inRow(plan: RowPlan, turn?: number): { [EVAL_ASSERTION]: EvalAssertion } {
  return { [EVAL_ASSERTION]: { row: plan.name, ...(turn !== undefined && { turn }) } }
}

interface Settled {
  status: 'pass' | 'fail' | 'error'
  score: number
  thrown?: unknown
}

// Run one matcher and read its outcome from the record it left: a failed assertion is a verdict
// (the row may tolerate it), an undecided one (judge error, cassette miss, usage error) is not.
async function settle(
  context: TestContext,
  callSite: Error,
  assert: () => Promise<void>,
): Promise<Settled> {
  const meta = context.task.meta as { rubricate?: RubricateRecord[] }
  const before = meta.rubricate?.length ?? 0
  let thrown: unknown
  let threw = false
  try {
    await assert()
  } catch (error) {
    threw = true
    // The matcher's own frames are rubricate's; the user's code is where describeEval is.
    thrown = pointAt(error, callSite)
  }
  const records = meta.rubricate ?? []
  const record = records.length > before ? records[records.length - 1] : undefined
  if (!record) return { status: 'error', score: 0, thrown }
  const status = record.status === 'pass' && threw ? 'error' : record.status
  const score = typeof record.score === 'number' ? record.score : record.status === 'pass' ? 1 : 0
  return { status, score, thrown }
}
