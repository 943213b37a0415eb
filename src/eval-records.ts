/**
 * What `describeEval` leaves in `task.meta` for reporters (plain JSON): one record per row test
 * (`meta.rubricateEvalRow`) and one per eval suite (`meta.rubricateEval` on its `describe`), so a
 * run merged from shards (`--merge-reports`) reports the same as one run.
 */

/** One trial of a row: the task ran once and every scorer judged its output. */
export interface EvalTrialRecord {
  /** Every scorer that scored the output passed (skipped ones do not count). */
  passed: boolean
  /** Score by scorer id; a skipped scorer (a function that returned `null`) is absent. */
  scores: Record<string, number>
}

/** One row of an eval, stored in its test's `meta.rubricateEvalRow`. */
export interface EvalRowRecord {
  v: 1
  /** The eval's name (its `describe`). */
  suite: string
  /** The row passed: its share of passing trials reached `trialPassRate`. */
  passed: boolean
  /** The task threw or a scorer could not decide: the row's test failed, whatever the gate. */
  errored: boolean
  /** The row failed, and its test passed because the suite gates on a pass rate below 1. */
  tolerated: boolean
  trials: EvalTrialRecord[]
  /** The share of trials that must pass for the row to pass. */
  trialPassRate: number
  /** The suite's gate, shown next to a tolerated row. */
  passRate: number
}

/** The mean score of one scorer over every trial of every row that ran. */
export interface EvalScorerMean {
  id: string
  mean: number
  /** Trials it scored (skips left out). */
  scored: number
}

/** One eval suite, stored in its `describe`'s `meta.rubricateEval`. */
export interface EvalSuiteRecord {
  v: 1
  name: string
  /** Rows that ran (a `-t` filter leaves some out). */
  rows: number
  passed: number
  /** Rows that failed, errored ones included. */
  failed: number
  errored: number
  /** `passed / rows`. */
  rate: number
  /** The gate: the share of rows that must pass. */
  passRate: number
  /** `rate >= passRate`. */
  gatePassed: boolean
  trials: number
  scorers: EvalScorerMean[]
  /** Names of the rows that failed, in order. */
  failedRows: string[]
}
