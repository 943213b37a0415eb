// The reporter's door to the run history (ARCHITECTURE.md §9.3): where it is, and adding a
// finished run to it, then reading back the last runs for the report page.
import { randomUUID } from 'node:crypto'
import { isAbsolute, resolve } from 'node:path'
import { isRubricateError, UsageError } from '../src/errors'
import { gitRevision } from '../src/history/git-revision'
import { historyMessages } from '../src/history/history-messages'
import type { StoredRun } from '../src/history/history-run'
import { DEFAULT_HISTORY_FILE } from '../src/history/history-schema'
import { openHistory } from '../src/history/history-store'
import type { RunReport } from './collect-run'
import { historyEntry } from './history-entry'
import type { RunSummary } from './run-summary'

/** The runs the report page draws and compares. @internal */
export const PAGE_RUNS = 10

/**
 * The history file of a run, absolute, or none: the option's path; else, with the option `true`
 * or unset, `RUBRICATE_HISTORY`; else, with `true`, `.rubricate-history.sqlite` under the root.
 * `false` turns it off whatever the environment says.
 * @internal
 */
export function historyPath(
  option: boolean | string | undefined,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  checkHistoryOption(option)
  if (option === false) return undefined
  const fromEnv = env.RUBRICATE_HISTORY?.trim()
  const chosen =
    typeof option === 'string'
      ? option
      : fromEnv || (option === true ? DEFAULT_HISTORY_FILE : undefined)
  if (!chosen) return undefined
  return isAbsolute(chosen) ? chosen : resolve(root, chosen)
}

/** A `history` option that is not `true`, `false` or a path is a usage error. @internal */
export function checkHistoryOption(option: unknown): void {
  if (option === undefined || typeof option === 'boolean') return
  if (typeof option !== 'string' || option.trim() === '') {
    throw new UsageError(historyMessages.badOption(option))
  }
}

/** What the report page shows of the history: the last runs, and each one's records by file. @internal */
export interface PageHistory {
  path: string
  runs: StoredRun[]
  files: Map<number, unknown>
  /** The run just added. */
  current: number
}

/** Add the run to the history and read back the last runs; a failure is a sentence, not a throw. @internal */
export function addRunToHistory(
  path: string,
  root: string,
  report: RunReport,
  summary: RunSummary,
  complete: boolean,
): PageHistory | string {
  try {
    const store = openHistory(path, root)
    try {
      const entry = historyEntry(report, summary, {
        runKey: randomUUID(),
        finishedAt: new Date(),
        complete,
        ...gitRevision(root),
      })
      const current = store.append(entry)
      const runs = store.runs({ last: PAGE_RUNS })
      const files = new Map(runs.map((run) => [run.id, store.files(run.id)]))
      return { path, runs, files, current }
    } finally {
      store.close()
    }
  } catch (error) {
    // A missing driver or a newer schema says its own fix; anything else is said with the path.
    return isRubricateError(error)
      ? error.message
      : historyMessages.notWritten(path, (error as Error).message)
  }
}
