/**
 * `rubricate cassettes stats | verify | migrate | prune | diff` (ARCHITECTURE.md §7.9): each takes
 * `--help`, `--json`, `--dir` and `--config` (the folder is read from the Vitest config when not
 * given). The logic lives in `src/cassettes/maintenance/`; here are the arguments and the output.
 */

import { relative, sep } from 'node:path'
import { cassetteStats } from '../cassettes/maintenance/cassette-stats'
import { verifyCassettes } from '../cassettes/maintenance/cassette-verify'
import { migrateCassettes } from '../cassettes/maintenance/migrate'
import { UsageError } from '../errors'
import { existingCassetteDir } from './cassette-dir'
import { cliMessages } from './cli-messages'
import { type CommandIO, EXIT, parseCommandOptions, refusePositionals } from './command-options'
import { diffCommand } from './diff-command'
import { pruneCommand } from './prune-command'

/** The commands under `rubricate cassettes`. @internal */
export const CASSETTE_COMMANDS = ['stats', 'verify', 'migrate', 'prune', 'diff'] as const
/** @internal */
export type CassetteCommand = (typeof CASSETTE_COMMANDS)[number]

/**
 * Run `rubricate cassettes <command>` with the arguments after it; returns the exit code.
 * @internal
 */
export async function cassettesCommand(
  command: CassetteCommand,
  args: readonly string[],
  io: CommandIO,
): Promise<number> {
  if (command === 'prune') return pruneCommand(args, io)
  if (command === 'diff') return diffCommand(args, io)
  const { values, positionals } = parseCommandOptions(`cassettes ${command}`, args, {
    dir: { type: 'string' },
    config: { type: 'string' },
    'allow-empty': { type: 'boolean' },
  })
  if (values.help) {
    io.out(cliMessages.cassetteUsage(command))
    return EXIT.ok
  }
  refusePositionals(`cassettes ${command}`, positionals)
  const dir = await existingCassetteDir(
    io.cwd,
    values.dir as string | undefined,
    values.config as string | undefined,
  )
  const shown = `${relative(io.cwd, dir).split(sep).join('/') || '.'}/`
  // Zero entries is a wrong folder more often than an empty project: a "✓" over nothing only
  // when asked for.
  const refuseEmpty = (empty: boolean) => {
    if (empty && values['allow-empty'] !== true)
      throw new UsageError(cliMessages.emptyCassetteDir(shown, command))
  }
  const show = (file: string) => relative(io.cwd, file).split(sep).join('/')
  if (command === 'stats') {
    const stats = await cassetteStats(dir)
    refuseEmpty(stats.entries === 0 && stats.unreadable === 0)
    if (values.json) {
      io.out(JSON.stringify(stats, null, 2))
      return EXIT.ok
    }
    io.out(
      cliMessages.stats({
        ...stats,
        dir: shown,
        oldest: stats.oldest && {
          date: stats.oldest.recordedAt.slice(0, 10),
          days: Math.floor((Date.now() - Date.parse(stats.oldest.recordedAt)) / 86_400_000),
          file: show(stats.oldest.file),
        },
        newest: stats.newest && { date: stats.newest.recordedAt.slice(0, 10) },
      }),
    )
    return EXIT.ok
  }
  if (command === 'migrate') {
    const migration = await migrateCassettes(dir)
    refuseEmpty(
      migration.migrated.length === 0 && migration.current === 0 && migration.problems.length === 0,
    )
    if (values.json) io.out(JSON.stringify(migration, null, 2))
    else io.out(cliMessages.migrated(migration.migrated.length, migration.current, shown))
    if (migration.problems.length === 0) return EXIT.ok
    const problems = migration.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
    io.err(cliMessages.verifyFailed(problems, migration.migrated.length + migration.current, shown))
    return EXIT.failed
  }
  const report = await verifyCassettes(dir)
  refuseEmpty(report.entries === 0 && report.problems.length === 0)
  const problems = report.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
  if (values.json) {
    // Paths relative to the current folder, as the text shows them; the exit code says the same.
    io.out(JSON.stringify({ dir: shown, entries: report.entries, problems }, null, 2))
    return problems.length === 0 ? EXIT.ok : EXIT.failed
  }
  if (problems.length === 0) {
    io.out(cliMessages.verifyPassed(report.entries, shown))
    return EXIT.ok
  }
  io.err(cliMessages.verifyFailed(problems, report.entries, shown))
  return EXIT.failed
}
