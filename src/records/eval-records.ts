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
  /** A multi-turn row: the conversation this trial held, turn by turn. */
  conversation?: EvalConversationRecord | undefined
}

/** One turn of a multi-turn row: the user's message, the reply, and its own checks' outcome. */
export interface EvalTurnRecord {
  turn: number
  /** The user's message (first 200 characters). */
  user: string
  /** The task's reply (first 200 characters). */
  reply: string
  /** Every check of this turn passed; absent when the turn had none. */
  passed?: boolean | undefined
  /** The user was played by the simulated user. */
  simulated?: boolean | undefined
}

/** A multi-turn row's conversation. */
export interface EvalConversationRecord {
  turns: EvalTurnRecord[]
  /**
   * Why it ended: `script` (the row's turns ran out), `goal` (the simulated user said it was
   * done), `stop` (the `stop` rule), `max-turns` (the turn limit), `limit` (the simulated user's
   * cap on calls or bytes per row).
   */
  ended: 'script' | 'goal' | 'stop' | 'max-turns' | 'limit'
  /** Calls made to the simulated user (each recorded in the cassettes like a judge call). */
  simulatedUserCalls?: number | undefined
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
  /** `'max'`: lower is better; its row threshold and mean gate are upper bounds. */
  direction?: 'max' | undefined
  /** The range of its scores, when declared and not `[0, 1]`. */
  range?: [min: number, max: number] | undefined
  /** Its weight in the eval's weighted mean gate, when not 1. */
  weight?: number | undefined
}

/**
 * One gate on a mean score: a scorer's (`scorer` set) or the weighted mean of every scorer (no
 * `scorer`; a lower-is-better scorer counts there as `1 - mean`).
 */
export interface EvalMeanGate {
  /** The scorer's id; absent for the weighted mean across scorers. */
  scorer?: string | undefined
  /** `'min'`: the mean must reach `threshold`; `'max'`: it must not exceed it. */
  direction: 'min' | 'max'
  threshold: number
  /** The mean compared; `null` when no trial was scored (the gate is then unmet). */
  mean: number | null
  /** Met: the mean is on the right side of `threshold`, over at least `minCoverage` of the trials. */
  passed: boolean
  /**
   * Trials the mean is over (the weighted gate: its least-covered scorer's). Absent in records
   * written before coverage was kept.
   */
  scored?: number | undefined
  /** Trials that ran: rows times trials. */
  total?: number | undefined
  /** The share of `total` that had to be scored for the gate to be met. */
  minCoverage?: number | undefined
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
  /** Every gate is met: `rate >= passRate`, and each of `meanGates`. */
  gatePassed: boolean
  /** `rate >= passRate` alone (absent in records written before mean gates: then `gatePassed`). */
  rateGatePassed?: boolean | undefined
  /** The gates on mean scores, per scorer then the weighted one; absent when there are none. */
  meanGates?: EvalMeanGate[] | undefined
  trials: number
  scorers: EvalScorerMean[]
  /** Names of the rows that failed, in order. */
  failedRows: string[]
}
