// What one run leaves in the history (ARCHITECTURE.md §9.3): plain data, built by the reporter
// from the collected run and read back by `rubricate history` and the report page.

/** One `describeEval` suite of a run. */
export interface HistoryEval {
  /** The test file, relative to the project root. */
  file: string
  /** `describe > eval`. */
  name: string
  rows: number
  passed: number
  failed: number
  errored: number
  /** `passed / rows`. */
  rate: number
  passRate: number
  gatePassed: boolean
  /** Each scorer's mean score over the suite's trials. */
  scorers: { id: string; mean: number }[]
  meanGates: { scorer?: string | undefined; threshold: number; passed: boolean }[]
}

/** One test that held rubricate records. */
export interface HistoryTest {
  file: string
  /** `suite > test`. */
  test: string
  /** The `describeEval` suite it is a row of, when it is one. */
  eval?: string | undefined
  /** As the report page labels it: `passed`, `failed`, `errored`, `tolerated`. */
  status: string
  /** The mean of its assertions' scores (a rubric's share of criteria met), when any has one. */
  score?: number | undefined
}

/** One criterion's verdict. */
export interface HistoryVerdict {
  file: string
  test: string
  /** The assertion's place in its test, from 0. */
  assertion: number
  /** `rubric`, `scorer "tone"`... as the report page labels it. */
  assertionName: string
  criterion: string
  required: boolean
  satisfied: boolean
  judgeModel?: string | undefined
}

/** One scorer assertion's score. */
export interface HistoryScore {
  file: string
  test: string
  assertion: number
  scorer: string
  score: number
  threshold?: number | undefined
  passed: boolean
}

/** One run as the history keeps it. */
export interface HistoryRun {
  /** Unique per run (the plugin's run id, or a fresh one): a run is added once. */
  runKey: string
  /** ISO 8601. */
  finishedAt: string
  commit?: string | undefined
  branch?: string | undefined
  complete: boolean
  judgeModels: string[]
  assertions: { total: number; passed: number; failed: number; errored: number }
  judgeCalls: number
  tokens: { input: number; output: number }
  /** Estimated cost in US dollars of the judge calls that went to the provider. */
  costUsd: number
  evals: HistoryEval[]
  tests: HistoryTest[]
  verdicts: HistoryVerdict[]
  scores: HistoryScore[]
  /** The run's records by file, as the JSON report's `files` (redacted): what a compare reads. */
  files: unknown
}

/** A run read back from the history, with the id the history gave it. */
export interface StoredRun extends Omit<HistoryRun, 'files'> {
  id: number
}
