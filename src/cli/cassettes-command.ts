import { relative, sep } from 'node:path'
import { cassetteStats } from '../cassettes/maintenance/cassette-stats'
import { verifyCassettes } from '../cassettes/maintenance/cassette-verify'
import { migrateCassettes } from '../cassettes/maintenance/migrate'
import { isRubricateError, UsageError } from '../errors'
import { terminalText } from '../output-safety/terminal-text'
import { calibrateCommand } from './calibrate-command'
import { cassetteDirFor } from './cassette-dir'
import { cliMessages } from './cli-messages'
import { parseCommandOptions } from './command-options'
import { diffCommand } from './diff-command'
import { type CommandIO, pruneCommand } from './prune-command'

/**
 * The `rubricate` command (ARCHITECTURE.md §7.9): `cassettes stats`, `cassettes verify`,
 * `cassettes migrate`, `cassettes prune`, `cassettes diff`, `calibrate`. Every command takes
 * `--help`, and the cassette commands `--dir` and `--config` (the folder is read from the Vitest
 * config when not given).
 * Arguments in, text out, an exit code back, so it is tested without spawning a process.
 * @internal
 */
export async function rubricateCommand(argv: readonly string[], raw: CommandIO): Promise<number> {
  // The one gate of the CLI: whatever a command prints (text or --json, a reasoning quoted by
  // `diff`, a label set's criteria by `calibrate`) is redacted and escaped for the terminal.
  const io: CommandIO = {
    ...raw,
    out: (text) => raw.out(terminalText(text)),
    err: (text) => raw.err(terminalText(text)),
  }
  const [group, command, ...rest] = argv
  if (group === 'calibrate') return runCalibrate(argv.slice(1), io)
  if (
    group === undefined ||
    group === '--help' ||
    group === '-h' ||
    (group === 'cassettes' && (command === '--help' || command === '-h'))
  ) {
    io.out(cliMessages.usage())
    return group === undefined ? 1 : 0
  }
  try {
    if (group !== 'cassettes')
      throw new UsageError(cliMessages.badUsage(`Unknown command "${group}"`))
    if (command === 'prune') return await pruneCommand(rest, io)
    if (command === 'diff') return await diffCommand(rest, io)
    if (command !== 'stats' && command !== 'verify' && command !== 'migrate') {
      throw new UsageError(
        cliMessages.badUsage(
          command === undefined
            ? '"rubricate cassettes" needs a command: stats, verify, migrate, prune or diff'
            : `Unknown command "cassettes ${command}"`,
        ),
      )
    }
    const { values, positionals } = parseCommandOptions(
      `cassettes ${command}`,
      rest,
      command === 'verify'
        ? { dir: { type: 'string' }, config: { type: 'string' } }
        : { dir: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' } },
    )
    if (values.help) {
      io.out(
        command === 'stats'
          ? cliMessages.statsUsage()
          : command === 'migrate'
            ? cliMessages.migrateUsage()
            : cliMessages.verifyUsage(),
      )
      return 0
    }
    if (positionals.length > 0) {
      throw new UsageError(
        cliMessages.badUsage(
          `"rubricate cassettes ${command}" takes no folder argument, but got "${positionals[0]}" (give the folder with --dir)`,
        ),
      )
    }
    const dir = await cassetteDirFor(
      io.cwd,
      values.dir as string | undefined,
      values.config as string | undefined,
    )
    const shown = `${relative(io.cwd, dir).split(sep).join('/') || '.'}/`
    const show = (file: string) => relative(io.cwd, file).split(sep).join('/')
    if (command === 'stats') {
      const stats = await cassetteStats(dir)
      if (values.json) {
        io.out(JSON.stringify(stats, null, 2))
        return 0
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
      return 0
    }
    if (command === 'migrate') {
      const migration = await migrateCassettes(dir)
      if (values.json) io.out(JSON.stringify(migration, null, 2))
      else io.out(cliMessages.migrated(migration.migrated.length, migration.current, shown))
      if (migration.problems.length === 0) return 0
      const problems = migration.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
      io.err(
        cliMessages.verifyFailed(problems, migration.migrated.length + migration.current, shown),
      )
      return 1
    }
    const report = await verifyCassettes(dir)
    if (report.problems.length === 0) {
      io.out(cliMessages.verifyPassed(report.entries, shown))
      return 0
    }
    const problems = report.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
    io.err(cliMessages.verifyFailed(problems, report.entries, shown))
    return 1
  } catch (error) {
    if (!isRubricateError(error)) throw error
    io.err(error.message)
    return 1
  }
}

async function runCalibrate(argv: readonly string[], io: CommandIO): Promise<number> {
  try {
    return await calibrateCommand(argv, io)
  } catch (error) {
    if (!isRubricateError(error)) throw error
    io.err(error.message)
    return 1
  }
}
