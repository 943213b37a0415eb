// Pure: a finished run as the history keeps it (ARCHITECTURE.md §9.3), from the collected run and
// its summary: per eval its gates and means, per test its outcome and score, per criterion its
// verdict and judge model, per scorer assertion its score.
import type { HistoryRun } from '../src/history/history-run'
import type { RunReport } from './collect-run'
import { rowStatus } from './html-test-row'
import { assertionName, verdictsOf } from './report-diff'
import type { RunSummary } from './run-summary'

/** @internal */
export function historyEntry(
  report: RunReport,
  summary: RunSummary,
  facts: {
    runKey: string
    finishedAt: Date
    complete: boolean
    commit?: string | undefined
    branch?: string | undefined
  },
): HistoryRun {
  const entry: HistoryRun = {
    runKey: facts.runKey,
    finishedAt: facts.finishedAt.toISOString(),
    ...(facts.commit ? { commit: facts.commit } : {}),
    ...(facts.branch ? { branch: facts.branch } : {}),
    complete: facts.complete,
    judgeModels: [],
    assertions: { ...summary.assertions },
    judgeCalls: summary.judge.calls,
    tokens: { input: 0, output: 0 },
    costUsd: summary.judge.cost,
    evals: (report.evals ?? []).map((e) => ({
      file: e.file,
      name: e.fullName,
      rows: e.rows,
      passed: e.passed,
      failed: e.failed,
      errored: e.errored,
      rate: e.rate,
      passRate: e.passRate,
      gatePassed: e.gatePassed,
      scorers: e.scorers.map((s) => ({ id: s.id, mean: s.mean })),
      meanGates: (e.meanGates ?? []).map((g) => ({
        ...(g.scorer ? { scorer: g.scorer } : {}),
        threshold: g.threshold,
        passed: g.passed,
      })),
    })),
    tests: [],
    verdicts: [],
    scores: [],
    files: report.files,
  }
  const models = new Set<string>()
  for (const file of report.files) {
    for (const test of file.tests) {
      const scored = test.records
        .map((r) => r.share ?? r.score)
        .filter((s): s is number => s !== undefined)
      entry.tests.push({
        file: file.file,
        test: test.fullName,
        ...(test.evalRow ? { eval: evalName(report, file.file, test.evalRow.suite) } : {}),
        status: rowStatus(test),
        ...(scored.length > 0
          ? { score: scored.reduce((sum, s) => sum + s, 0) / scored.length }
          : {}),
      })
      test.records.forEach((record, index) => {
        const judge =
          record.judgeCalls.find((call) => call.step === 'analyze')?.model ??
          record.judgeCalls[0]?.model
        for (const call of record.judgeCalls) {
          models.add(call.model)
          entry.tokens.input += call.usage?.inputTokens ?? 0
          entry.tokens.output += call.usage?.outputTokens ?? 0
        }
        for (const verdict of verdictsOf(record)) {
          entry.verdicts.push({
            file: file.file,
            test: test.fullName,
            assertion: index,
            assertionName: assertionName(record),
            criterion: verdict.criterion,
            required: verdict.required,
            satisfied: verdict.satisfied,
            ...(judge ? { judgeModel: judge } : {}),
          })
        }
        if (record.kind === 'scorer' && record.score !== undefined) {
          entry.scores.push({
            file: file.file,
            test: test.fullName,
            assertion: index,
            scorer: record.scorerId ?? 'scorer',
            score: record.score,
            ...(record.threshold !== undefined ? { threshold: record.threshold } : {}),
            passed: record.status === 'pass',
          })
        }
      })
    }
  }
  entry.judgeModels = [...models].sort()
  return entry
}

// The eval's full name (`describe > eval`) as the run's eval list has it; the row knows its own
// name only.
function evalName(report: RunReport, file: string, suite: string): string {
  const found = (report.evals ?? []).find(
    (e) => e.file === file && (e.fullName === suite || e.fullName.endsWith(` > ${suite}`)),
  )
  return found?.fullName ?? suite
}
