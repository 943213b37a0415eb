/**
 * `rubricate history [--history <file>] [--last <n>] [--json]`: the runs of the run history, and
 * per eval and per criterion the pass rate and mean over the last runs with where they moved
 * (ARCHITECTURE.md §9.3).
 */
import { existsSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { UsageError } from '../errors'
import { historyMessages } from '../history/history-messages'
import { DEFAULT_HISTORY_FILE, HISTORY_SCHEMA_VERSION } from '../history/history-schema'
import { openHistory } from '../history/history-store'
import { historyText } from '../history/history-text'
import { historyTrends } from '../history/history-trends'
import { messages } from '../messages'
import { cliMessages } from './cli-messages'
import {
  type CommandIO,
  CommandLineError,
  EXIT,
  parseCommandOptions,
  refusePositionals,
} from './command-options'

/** Run `rubricate history`; returns the exit code. @internal */
export async function historyCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandOptions('history', argv, {
    history: { type: 'string' },
    last: { type: 'string' },
  })
  if (values.help) {
    io.out(cliMessages.historyUsage())
    return EXIT.ok
  }
  refusePositionals('history', positionals)
  const last = values.last === undefined ? 10 : Number(values.last)
  if (!Number.isInteger(last) || last < 1) {
    throw new CommandLineError(messages.notPositiveInteger('rubricate history --last', values.last))
  }
  const given =
    (values.history as string | undefined) ||
    process.env.RUBRICATE_HISTORY?.trim() ||
    DEFAULT_HISTORY_FILE
  const path = isAbsolute(given) ? given : resolve(io.cwd, given)
  const shown = relative(io.cwd, path).startsWith('..') ? path : relative(io.cwd, path)
  // Reading never creates a file: a mistyped path is said, not answered with an empty history.
  if (!existsSync(path)) throw new UsageError(historyMessages.noHistoryFile(shown))
  const store = openHistory(path, io.cwd)
  try {
    const total = store.runs().length
    const trends = historyTrends(store.runs({ last }))
    if (values.json) {
      io.out(
        JSON.stringify(
          { path: shown, schemaVersion: HISTORY_SCHEMA_VERSION, totalRuns: total, ...trends },
          null,
          2,
        ),
      )
    } else {
      io.out(historyText(trends, shown, total))
    }
    return EXIT.ok
  } finally {
    store.close()
  }
}
