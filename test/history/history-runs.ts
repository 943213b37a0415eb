// Runs for history tests, written through the store's API: an eval of four rows judged on two
// criteria, where a change at one run (the judge model, say) flips "Mentions refund" on two rows.
import type { HistoryRun } from '../../src/history/history-run'

export const EVAL_FILE: string = 'evals/support.eval.ts'
export const EVAL_NAME: string = 'support answers'
export const ROWS: string[] = ['refund asked', 'late parcel', 'wrong size', 'greeting']

/** The commit of run n (1-based): 40 hex characters, its first seven `c0ffe` and n in two digits. */
export const commitOf = (n: number): string => `c0ffe${String(n).padStart(2, '0')}`.padEnd(40, '0')

/**
 * Run n of ten: runs 1 to 5 judge with `gpt-judge-a` and every row passes; from `changeAt` on,
 * `gpt-judge-b` finds "Mentions refund" unmet on the first two rows.
 */
export function supportRun(n: number, changeAt = 6, runKey = `run-${n}`): HistoryRun {
  const changed = n >= changeAt
  const judge = changed ? 'gpt-judge-b' : 'gpt-judge-a'
  const verdicts = ROWS.flatMap((row, index) => [
    {
      file: EVAL_FILE,
      test: `${EVAL_NAME} > ${row}`,
      assertion: 0,
      assertionName: 'rubric',
      criterion: 'Mentions refund',
      required: true,
      satisfied: !(changed && index < 2),
      judgeModel: judge,
    },
    {
      file: EVAL_FILE,
      test: `${EVAL_NAME} > ${row}`,
      assertion: 0,
      assertionName: 'rubric',
      criterion: 'Is polite',
      required: true,
      satisfied: true,
      judgeModel: judge,
    },
  ])
  const failedRows = changed ? 2 : 0
  return {
    runKey,
    finishedAt: new Date(Date.UTC(2026, 11, 1, 8, n)).toISOString(),
    commit: commitOf(n),
    branch: 'main',
    complete: true,
    judgeModels: [judge],
    assertions: { total: 4, passed: 4 - failedRows, failed: failedRows, errored: 0 },
    judgeCalls: 4,
    tokens: { input: 400, output: 80 },
    costUsd: 0.0012,
    evals: [
      {
        file: EVAL_FILE,
        name: EVAL_NAME,
        rows: 4,
        passed: 4 - failedRows,
        failed: failedRows,
        errored: 0,
        rate: (4 - failedRows) / 4,
        passRate: 0.5,
        gatePassed: true,
        scorers: [{ id: 'rubric', mean: changed ? 0.75 : 1 }],
        meanGates: [],
      },
    ],
    tests: ROWS.map((row, index) => ({
      file: EVAL_FILE,
      test: `${EVAL_NAME} > ${row}`,
      eval: EVAL_NAME,
      status: changed && index < 2 ? 'tolerated' : 'passed',
      score: changed && index < 2 ? 0.5 : 1,
    })),
    verdicts,
    scores: [],
    files: [],
  }
}
