// Collected runs for the report page's history tests: an eval of four rows judged on two
// criteria; from run `changeAt` on, the judge (another model) finds "Mentions refund" unmet on the
// first two rows. Written to a history through the reporter's own `historyEntry`.
import type { RunReport, TestReport } from '../../reporters/collect-run'
import { historyEntry } from '../../reporters/history-entry'
import type { PageHistory } from '../../reporters/run-history'
import { summariseRun } from '../../reporters/run-summary'
import type { HistoryStore } from '../../src/history/history-store'
import { call, record, verdict } from '../reporter/records'
import { commitOf, EVAL_FILE, EVAL_NAME, ROWS } from './history-runs'

/** The collected run n. */
export function supportReport(n: number, changeAt = 6): RunReport {
  const changed = n >= changeAt
  const model = changed ? 'gpt-judge-b' : 'gpt-judge-a'
  const tests: TestReport[] = ROWS.map((row, index) => {
    const unmet = changed && index < 2
    return {
      name: row,
      fullName: `${EVAL_NAME} > ${row}`,
      state: 'pass',
      records: [
        record({
          status: unmet ? 'fail' : 'pass',
          output: `Answer ${index + 1}: we will look into it${unmet ? '.' : ' and refund you.'}`,
          outputPreview: `Answer ${index + 1}`,
          input: `Customer: ${row}`,
          verdicts: [
            verdict('Mentions refund', !unmet, {
              reasoning: unmet ? 'The reply never says "refund".' : 'The reply says "refund".',
            }),
            verdict('Is polite', true),
          ],
          judgeCalls: [call('replayed', { input: 100, output: 20 }, model)],
        }),
      ],
      evalRow: {
        v: 1,
        suite: EVAL_NAME,
        passed: !unmet,
        errored: false,
        tolerated: unmet,
        trials: [{ passed: !unmet, scores: { rubric: unmet ? 0.5 : 1 } }],
        trialPassRate: 1,
        passRate: 0.5,
      },
    }
  })
  const failed = changed ? 2 : 0
  return {
    files: [{ file: EVAL_FILE, tests }],
    skippedTests: 0,
    evals: [
      {
        v: 1,
        name: EVAL_NAME,
        file: EVAL_FILE,
        fullName: EVAL_NAME,
        rows: 4,
        passed: 4 - failed,
        failed,
        errored: 0,
        rate: (4 - failed) / 4,
        passRate: 0.5,
        gatePassed: true,
        trials: 1,
        scorers: [{ id: 'rubric', mean: changed ? 0.75 : 1, scored: 4 }],
        failedRows: changed ? ROWS.slice(0, 2).map((r) => `${EVAL_NAME} > ${r}`) : [],
      },
    ],
  }
}

/** Runs 1 to `count` added to `store` as the reporter adds them; the page's view of the history. */
export function addSupportRuns(store: HistoryStore, count = 10, changeAt = 6): PageHistory {
  let current = 0
  for (let n = 1; n <= count; n++) {
    const report = supportReport(n, changeAt)
    current = store.append(
      historyEntry(report, summariseRun(report, {}), {
        runKey: `run-${n}`,
        finishedAt: new Date(Date.UTC(2026, 11, 1, 8, n)),
        complete: true,
        commit: commitOf(n),
        branch: 'main',
      }),
    )
  }
  const runs = store.runs({ last: 10 })
  return {
    path: store.path,
    runs,
    files: new Map(runs.map((run) => [run.id, store.files(run.id)])),
    current,
  }
}
