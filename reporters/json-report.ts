// Pure: the JSON report written to `outputFile.rubricate`.
import type { FileReport, RunReport } from './collect-run'
import type { Completeness } from './run-completeness'
import type { RunSummary } from './run-summary'

/** The JSON report of a run: the summary, whether the run was complete, and every record by file. */
export interface RubricateJsonReport {
  v: 1
  /** Passed, with no file filter, -t, .only, skip or shard; `incompleteReasons` says why not. */
  complete: boolean
  incompleteReasons: string[]
  summary: RunSummary
  /** Test files that hold rubricate records or cassette usage, sorted by path. */
  files: FileReport[]
}

/** @internal */
export function toJsonReport(
  report: RunReport,
  summary: RunSummary,
  completeness: Completeness,
): RubricateJsonReport {
  return {
    v: 1,
    complete: completeness.complete,
    incompleteReasons: completeness.reasons,
    summary,
    files: report.files,
  }
}
