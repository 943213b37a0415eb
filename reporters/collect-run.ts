// Pure: gathers what rubricate wrote into `task.meta` (per test: assertion records; per file:
// cassette usage) from Vitest's task trees. Everything comes from meta, so a run merged from
// shards (`--merge-reports`) yields the same report as one run.
import { relative } from 'node:path'
import type { EvalRowRecord, EvalSuiteRecord } from '../src/records/eval-records'
import type {
  CassetteUsageRecord,
  RubricateRecord,
  ToolCallAssertionRecord,
} from '../src/records/records'

/** The parts of a Vitest runner task that the report reads (structural, so tests can build one). */
export interface TaskLike {
  type: string
  name: string
  mode?: string | undefined
  meta?: {
    rubricate?: RubricateRecord[] | undefined
    rubricateCassettes?: CassetteUsageRecord | undefined
    /** On a `describeEval` suite: its gate and scores. */
    rubricateEval?: EvalSuiteRecord | undefined
    /** On a `describeEval` row's test: the row's verdict. */
    rubricateEvalRow?: EvalRowRecord | undefined
    /** The test's tool-call assertions, for the report page. */
    rubricateToolCalls?: ToolCallAssertionRecord[] | undefined
  }
  result?: { state?: string | undefined } | undefined
  tasks?: TaskLike[] | undefined
}

/** A test file task. */
export interface FileTaskLike extends TaskLike {
  filepath: string
  projectName?: string | undefined
}

/** One test that holds rubricate records. */
export interface TestReport {
  name: string
  /** `suite > test`. */
  fullName: string
  /** Vitest's state of the test: `pass`, `fail`, `skip`, ... */
  state: string
  records: RubricateRecord[]
  /** Its tool-call assertions (`toHaveCalledTool`, `toHaveToolCalls`), shown on the report page. */
  toolCalls?: ToolCallAssertionRecord[] | undefined
  /** A `describeEval` row's test: the row's outcome (its trials, whether its failure is tolerated). */
  evalRow?: EvalRowRecord | undefined
}

/** One test file: its tests that hold records, and its cassette usage. */
export interface FileReport {
  /** Relative to the project root, with forward slashes. */
  file: string
  project?: string | undefined
  tests: TestReport[]
  cassettes?: CassetteUsageRecord | undefined
}

/** One `describeEval` suite of a run, with the file it is in. */
export interface EvalSuiteReport extends EvalSuiteRecord {
  /** Relative to the project root, with forward slashes. */
  file: string
  /** `describe > eval`, when the eval is nested in other suites. */
  fullName: string
}

/** Everything rubricate recorded in a run, plus the facts about skipped tests. */
export interface RunReport {
  files: FileReport[]
  /** The `describeEval` suites that ran, in file order; absent when there were none. */
  evals?: EvalSuiteReport[] | undefined
  /** Tests that did not run (skip, todo, .only elsewhere, -t), over all files. */
  skippedTests: number
}

/**
 * Collect the records of a run from its file tasks. Files that hold neither records nor cassette
 * usage are left out; files are sorted by path, tests keep their order.
 * @internal
 */
export function collectRun(files: readonly FileTaskLike[], root: string): RunReport {
  const reports: FileReport[] = []
  const evals: EvalSuiteReport[] = []
  let skippedTests = 0
  for (const file of files) {
    const tests: TestReport[] = []
    const fileName = relative(root, file.filepath).split('\\').join('/')
    const visit = (task: TaskLike, path: string[]): void => {
      for (const child of task.tasks ?? []) {
        if (child.type === 'suite') {
          const suiteEval = child.meta?.rubricateEval
          if (suiteEval) {
            evals.push({
              ...suiteEval,
              file: fileName,
              fullName: [...path, child.name].join(' > '),
            })
          }
          visit(child, [...path, child.name])
          continue
        }
        if (child.type !== 'test') continue
        const state = child.result?.state ?? (child.mode === 'run' ? 'pending' : (child.mode ?? ''))
        if (child.mode === 'skip' || child.mode === 'todo' || state === 'skip') skippedTests++
        const records = testRecords(child.meta)
        const toolCalls = child.meta?.rubricateToolCalls ?? []
        if (records.length === 0 && toolCalls.length === 0) continue
        tests.push({
          name: child.name,
          fullName: [...path, child.name].join(' > '),
          state,
          records,
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
          ...(child.meta?.rubricateEvalRow ? { evalRow: child.meta.rubricateEvalRow } : {}),
        })
      }
    }
    visit(file, [])
    const cassettes = file.meta?.rubricateCassettes
    if (tests.length === 0 && !cassettes) continue
    reports.push({
      file: fileName,
      ...(file.projectName ? { project: file.projectName } : {}),
      tests,
      ...(cassettes ? { cassettes } : {}),
    })
  }
  reports.sort((a, b) =>
    a.file === b.file ? (a.project ?? '').localeCompare(b.project ?? '') : a.file < b.file ? -1 : 1,
  )
  evals.sort((a, b) => (a.file === b.file ? 0 : a.file < b.file ? -1 : 1))
  return { files: reports, skippedTests, ...(evals.length > 0 ? { evals } : {}) }
}

/** Every record of a run, in file and test order. @internal */
export function allRecords(report: RunReport): RubricateRecord[] {
  return report.files.flatMap((file) => file.tests.flatMap((test) => test.records))
}

/**
 * The records of one test. A loop writes a record after every check, each replacing the one before
 * with the same `loopId`; should several reach the reporter, only the last of each loop counts.
 * @internal
 */
export function testRecords(meta: TaskLike['meta']): RubricateRecord[] {
  const records = meta?.rubricate ?? []
  return records.filter(
    (record, index) =>
      record.kind !== 'loop' ||
      record.loopId === undefined ||
      !records.slice(index + 1).some((later) => later.loopId === record.loopId),
  )
}
