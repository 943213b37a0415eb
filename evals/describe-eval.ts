import { afterAll, describe, expect, type TestContext, test } from 'vitest'
import { checkOptions } from '../matchers/check-options'
import { rejectUnknownKeys } from '../src/config/known-keys'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { EvalRowRecord } from '../src/records/eval-records'
import { captureCallSite, pointAt } from './call-site'
import { type SuiteGates, summariseSuite } from './eval-gate'
import { type NormalisedScorer, normaliseScorers } from './eval-scorer'
import { loadRows } from './load-data'
import { rowNames } from './row-name'
import { type RowPlan, runRow } from './run-row'
import type { DescribeEvalOptions, EvalRow, SimulatedUserOptions } from './types'

const OPTIONS = [
  'data',
  'task',
  'criteria',
  'turnCriteria',
  'simulatedUser',
  'scorers',
  'threshold',
  'passRate',
  'mean',
  'minCoverage',
  'trials',
  'trialPassRate',
  'concurrent',
  'timeout',
] as const

/**
 * A dataset eval as a Vitest suite: one test per row of `data`, named from the row (`row.name`,
 * else its input, shortened), so `-t`, `--shard`, `concurrent` and every reporter work per row.
 * Each row's `task(row)` output is judged by `criteria` (a rubric) and/or `scorers`, which must
 * reach `threshold` (default `1`). `passRate` (default `1`) gates the suite: below 1, a failing
 * row's test passes and is marked as tolerated, and the suite fails when the share of passing rows
 * falls under the gate. `trials: k` runs each row k times, each trial's model calls recorded apart,
 * and the row passes when the share of passing trials reaches `trialPassRate` (default `1`).
 *
 * @example
 * import { describeEval } from 'rubricate/evals'
 *
 * describeEval('refund questions', {
 *   data: './refund-questions.jsonl',
 *   task: (row) => supportAgent(row.input),
 *   criteria: (row) => row.rubric,
 *   passRate: 0.9,
 * })
 */
export function describeEval<Row extends EvalRow = EvalRow, Output = unknown>(
  name: string,
  options: DescribeEvalOptions<Row, Output>,
): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new UsageError(messages.evalNeedsName(name))
  }
  const checked = checkEvalOptions(options as unknown as DescribeEvalOptions)
  const callSite = captureCallSite()
  describe(name, async () => {
    // The file being collected: a relative data path is resolved against its folder.
    const rows = await loadRows(checked.data, expect.getState().testPath)
    const names = rowNames(rows)
    // By row: a retried or repeated row counts once, with its last outcome.
    const results = new Map<number, { index: number; name: string; record: EvalRowRecord }>()
    const testOptions = {
      ...(checked.concurrent ? { concurrent: true } : {}),
      ...(checked.timeout !== undefined ? { timeout: checked.timeout } : {}),
    }
    rows.forEach((row, index) => {
      const rowName = names[index]!
      const plan: RowPlan = { ...checked.plan, suite: name, name: rowName, row, callSite }
      test(rowName, testOptions, async (context: TestContext) => {
        const outcome = await runRow(plan, context)
        ;(context.task.meta as { rubricateEvalRow?: EvalRowRecord }).rubricateEvalRow =
          outcome.record
        results.set(index, { index, name: rowName, record: outcome.record })
        if ('error' in outcome) throw outcome.error
      })
    })
    // The gate, over the rows that ran (a `-t` filter leaves some out). Stored in the suite's
    // meta, so the reporter prints it and a merged run of shards still has it.
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a hook's first parameter as fixtures
    afterAll(({}, suite) => {
      if (results.size === 0) return
      const rows = [...results.values()].sort((a, b) => a.index - b.index)
      const record = summariseSuite(
        name,
        rows,
        checked.plan.passRate,
        checked.plan.trials,
        checked.gates,
      )
      ;(suite.meta as { rubricateEval?: typeof record }).rubricateEval = record
      // With a gate of 1 every failing row already failed its own test; saying it again here
      // would only repeat them. A mean gate is the suite's alone: no row's test said it.
      const rateUnmet = !record.rateGatePassed && checked.plan.passRate < 1
      const meansUnmet = (record.meanGates ?? []).filter((gate) => !gate.passed)
      if (rateUnmet || meansUnmet.length > 0) {
        const parts: string[] = []
        if (rateUnmet) {
          parts.push(
            messages.evalGateUnmet(
              name,
              record.passed,
              record.rows,
              record.passRate,
              record.failedRows,
            ),
          )
        }
        if (meansUnmet.length > 0) parts.push(messages.evalMeanGatesUnmet(name, meansUnmet))
        throw pointAt(new Error(parts.join('\n')), callSite)
      }
    })
  })
}

interface CheckedOptions {
  data: DescribeEvalOptions['data']
  gates: SuiteGates
  concurrent: boolean
  timeout: number | undefined
  plan: Omit<RowPlan, 'suite' | 'name' | 'row' | 'callSite'>
}

function checkEvalOptions(options: DescribeEvalOptions): CheckedOptions {
  if (options === undefined)
    throw new UsageError(messages.configNotObject('describeEval()', options))
  const opts = checkOptions('describeEval', options, OPTIONS) as Partial<DescribeEvalOptions>
  const { data, task, criteria, scorers } = opts
  if (
    !Array.isArray(data) &&
    typeof data !== 'function' &&
    typeof data !== 'string' &&
    !(data instanceof URL)
  ) {
    throw new UsageError(messages.evalBadData(data))
  }
  if (typeof task !== 'function') throw new UsageError(messages.evalTaskNotFunction(task))
  if (
    criteria === undefined &&
    opts.turnCriteria === undefined &&
    (scorers === undefined || scorers.length === 0)
  ) {
    throw new UsageError(messages.evalNothingJudges())
  }
  if (
    criteria !== undefined &&
    typeof criteria !== 'string' &&
    typeof criteria !== 'function' &&
    (typeof criteria !== 'object' || criteria === null)
  ) {
    throw new UsageError(messages.evalBadCriteria(criteria))
  }
  if (scorers !== undefined && !Array.isArray(scorers)) {
    throw new UsageError(messages.evalBadScorer(0, scorers))
  }
  const normalised: NormalisedScorer[] = normaliseScorers(scorers ?? [])
  const threshold = opts.threshold
  if (threshold !== undefined && !(typeof threshold === 'number' && Number.isFinite(threshold))) {
    throw new UsageError(messages.evalBadThreshold(threshold))
  }
  const passRate = rate('passRate', opts.passRate)
  const mean = opts.mean
  if (mean !== undefined && !(typeof mean === 'number' && Number.isFinite(mean))) {
    throw new UsageError(messages.evalBadMean(mean))
  }
  const minCoverage = opts.minCoverage
  if (
    minCoverage !== undefined &&
    !(typeof minCoverage === 'number' && minCoverage >= 0 && minCoverage <= 1)
  ) {
    throw new UsageError(messages.evalBadRate('minCoverage', minCoverage))
  }
  // The rubric of `criteria` is a scorer like the others in the weighted mean, of weight 1.
  const gateScorers: SuiteGates['scorers'] = [
    ...(criteria !== undefined ? [{ id: 'rubric', direction: 'min' as const, weight: 1 }] : []),
    ...normalised.map(({ id, direction, range, mean, minCoverage, weight }) => ({
      id,
      direction,
      weight,
      ...(range ? { range } : {}),
      ...(mean !== undefined ? { mean } : {}),
      ...(minCoverage !== undefined ? { minCoverage } : {}),
    })),
  ]
  const trialPassRate = rate('trialPassRate', opts.trialPassRate)
  const trials = opts.trials ?? 1
  if (!Number.isInteger(trials) || trials < 1) {
    throw new UsageError(messages.notPositiveInteger('describeEval() option "trials"', trials))
  }
  const simulatedUser = checkSimulatedUser(opts.simulatedUser)
  const turnCriteria = opts.turnCriteria
  if (
    turnCriteria !== undefined &&
    typeof turnCriteria !== 'string' &&
    (typeof turnCriteria !== 'object' || turnCriteria === null)
  ) {
    throw new UsageError(messages.evalBadCriteria(turnCriteria))
  }
  const timeout = opts.timeout
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) {
    throw new UsageError(messages.notPositiveNumber('describeEval() option "timeout"', timeout))
  }
  if (opts.concurrent !== undefined && typeof opts.concurrent !== 'boolean') {
    throw new UsageError(
      messages.invalidChoice('describeEval() option "concurrent"', opts.concurrent, [
        'true',
        'false',
      ]),
    )
  }
  return {
    data,
    gates: { scorers: gateScorers, mean, minCoverage },
    concurrent: opts.concurrent ?? false,
    timeout,
    plan: {
      task: task as RowPlan['task'],
      criteria,
      turnCriteria,
      simulatedUser,
      scorers: normalised,
      threshold,
      trials,
      trialPassRate,
      passRate,
    },
  }
}

function rate(option: string, value: unknown): number {
  if (value === undefined) return 1
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new UsageError(messages.evalBadRate(option, value))
  }
  return value
}

const SIMULATED_USER_KEYS = ['instructions', 'model', 'maxTurns', 'stop']

function checkSimulatedUser(value: unknown): SimulatedUserOptions | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(messages.configNotObject('describeEval() option "simulatedUser"', value))
  }
  rejectUnknownKeys('describeEval() option "simulatedUser"', value, SIMULATED_USER_KEYS)
  const options = value as SimulatedUserOptions
  const { instructions, maxTurns, stop } = options
  if (typeof instructions !== 'string' && typeof instructions !== 'function') {
    throw new UsageError(messages.evalSimulatedUserNoInstructions(instructions))
  }
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw new UsageError(
      messages.notPositiveInteger('describeEval() option "simulatedUser.maxTurns"', maxTurns),
    )
  }
  if (stop !== undefined && typeof stop !== 'function') {
    throw new UsageError(messages.evalSimulatedUserBadStop(stop))
  }
  return options
}
