// The texts of the run history, beside the code that says them (ARCHITECTURE.md §9.3).
import { format } from '../messages'

/** @internal */
export const historyMessages = {
  noSqlite: (node: string, reasons: readonly string[]): string =>
    format(
      `The run history needs SQLite, and none could be loaded on Node ${node}: ${reasons.join('; ')}. Install the binding in the project (npm install -D better-sqlite3), or run on Node 22.13 or later, which has node:sqlite built in; or turn the history off (remove the history option and RUBRICATE_HISTORY).`,
    ),
  newerSchema: (path: string, found: number, known: number): string =>
    format(
      `The run history "${path}" has schema version ${found}, written by a newer rubricate; this one knows versions up to ${known} and does not write to it. Upgrade rubricate, or point the history option (or RUBRICATE_HISTORY) at another file.`,
    ),
  notAHistory: (path: string, reason: string): string =>
    format(
      `"${path}" could not be opened as a rubricate run history: ${reason}. Point the history option (or RUBRICATE_HISTORY, or --history) at a history file, or at a path where none exists yet to start one.`,
    ),
  notWritten: (path: string, reason: string): string =>
    format(
      `This run was not added to the run history "${path}": ${reason}. The run itself is not affected; check that the folder is writable and that no other program holds the file locked for more than the busy timeout (10 s).`,
    ),
  badOption: (value: unknown): string =>
    format(
      `The history option must be true (the default file, .rubricate-history.sqlite), false, or the path of a history file, but got ${JSON.stringify(value) ?? String(value)}.`,
    ),
  noHistoryFile: (path: string): string =>
    format(
      `No run history at "${path}". A run adds itself to the history when the plugin's or reporter's \`history\` option is set (or RUBRICATE_HISTORY names the file); pass --history <file> to read another one.`,
    ),
}
