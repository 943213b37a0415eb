import { relative, resolve, sep } from 'node:path'
import { parseArgs } from 'node:util'
import { cassetteStats } from '../cassettes/maintenance/cassette-stats'
import { verifyCassettes } from '../cassettes/maintenance/cassette-verify'
import { migrateCassettes } from '../cassettes/maintenance/migrate'
import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'
import { calibrateCommand } from './calibrate-command'
import { type CommandIO, pruneCommand } from './prune-command'

/**
 * The `rubricate` command (DESIGN 7.9): `cassettes stats`, `cassettes verify`, `cassettes migrate`,
 * `cassettes prune`.
 * Arguments in, text out, an exit code back, so it is tested without spawning a process.
 * @internal
 */
export async function rubricateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const [group, command, ...rest] = argv
  if (group === 'calibrate') return runCalibrate(argv.slice(1), io)
  if (
    group === undefined ||
    group === '--help' ||
    group === '-h' ||
    command === '--help' ||
    command === '-h'
  ) {
    io.out(messages.cliUsage())
    return group === undefined ? 1 : 0
  }
  try {
    if (group !== 'cassettes')
      throw new UsageError(messages.cliBadUsage(`Unknown command "${group}"`))
    if (command === 'prune') return await pruneCommand(rest, io)
    if (command !== 'stats' && command !== 'verify' && command !== 'migrate') {
      throw new UsageError(
        messages.cliBadUsage(
          command === undefined
            ? '"rubricate cassettes" needs a command: stats, verify, migrate or prune'
            : `Unknown command "cassettes ${command}"`,
        ),
      )
    }
    const { values } = parseOptions(rest, command)
    const dir = resolve(io.cwd, values.dir ?? '__cassettes__')
    const shown = `${relative(io.cwd, dir).split(sep).join('/') || '.'}/`
    const show = (file: string) => relative(io.cwd, file).split(sep).join('/')
    if (command === 'stats') {
      const stats = await cassetteStats(dir)
      if (values.json) {
        io.out(JSON.stringify(stats, null, 2))
        return 0
      }
      io.out(
        messages.cliStats({
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
      else io.out(messages.cliMigrated(migration.migrated.length, migration.current, shown))
      if (migration.problems.length === 0) return 0
      const problems = migration.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
      io.err(
        messages.cliVerifyFailed(problems, migration.migrated.length + migration.current, shown),
      )
      return 1
    }
    const report = await verifyCassettes(dir)
    if (report.problems.length === 0) {
      io.out(messages.cliVerifyPassed(report.entries, shown))
      return 0
    }
    const problems = report.problems.map((p) => ({ file: show(p.file), problem: p.problem }))
    io.err(messages.cliVerifyFailed(problems, report.entries, shown))
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

function parseOptions(args: string[], command: string) {
  try {
    return parseArgs({
      args,
      options: { dir: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: false,
      strict: true,
    })
  } catch (error) {
    // Node's own wording changes between versions; say it in ours.
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1]
    const problem =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option
        ? `"rubricate cassettes ${command}" has no option "${option}" (it takes --dir <folder> and --json)`
        : `"rubricate cassettes ${command}": ${(error as Error).message}`
    throw new UsageError(messages.cliBadUsage(problem))
  }
}
