/**
 * The `rubricate cassettes prune [--dry-run] [--dir <folder>] [--config <file>] [--root <dir>]
 * [--json]` command: arguments in, text out.
 */

import { relative, resolve } from 'node:path'
import { pruneCassettes } from '../cassettes/maintenance/prune'
import { messages } from '../messages'
import { existingCassetteDir, folderProblem } from './cassette-dir'
import { cliMessages } from './cli-messages'
import {
  type CommandIO,
  CommandLineError,
  EXIT,
  parseCommandOptions,
  refusePositionals,
} from './command-options'

export type { CommandIO } from './command-options'

/**
 * Run prune with the arguments after `rubricate cassettes prune`; returns the exit code.
 * @internal
 */
export async function pruneCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandOptions('cassettes prune', args, {
    'dry-run': { type: 'boolean' },
    root: { type: 'string' },
    dir: { type: 'string' },
    config: { type: 'string' },
  })
  if (values.help) {
    io.out(cliMessages.pruneUsage())
    return EXIT.ok
  }
  refusePositionals('cassettes prune', positionals)
  const dryRun = values['dry-run'] === true
  const root = resolve(io.cwd, (values.root as string | undefined) ?? '.')
  const rootProblem = folderProblem(root)
  if (rootProblem !== undefined) {
    throw new CommandLineError(
      cliMessages.pruneRootNotAFolder(relative(io.cwd, root) || '.', rootProblem),
    )
  }
  const dir = values.dir as string | undefined
  const config = values.config as string | undefined
  // Without --dir or --config, every folder the run used; with either, that one folder.
  const only =
    dir !== undefined || config !== undefined
      ? await existingCassetteDir(io.cwd, dir, config)
      : undefined
  const report = await pruneCassettes(root, { dryRun, dir: only })
  const show = (file: string) => relative(io.cwd, file) || '.'
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          dryRun,
          ...report,
          folders: report.folders.map((folder) => ({
            ...folder,
            dir: show(folder.dir),
            deleted: folder.deleted.map(show),
          })),
        },
        null,
        2,
      ),
    )
    return EXIT.ok
  }
  const { finishedAt, failedRun, folders } = report
  for (const result of folders) {
    const shown = show(result.dir)
    const files = result.deleted.map(show)
    io.out(
      files.length === 0
        ? messages.nothingToPrune(result.total, shown, failedRun)
        : messages.pruned(dryRun, files, result.total, shown, finishedAt, failedRun),
    )
    if (result.keptNewer > 0) io.out(messages.prunedKeptNewer(result.keptNewer, shown))
    if (result.keptOthers > 0) io.out(messages.prunedKeptOthers(result.keptOthers, shown))
    if (result.keptFailed > 0) io.out(messages.prunedKeptFailed(result.keptFailed, shown))
  }
  return EXIT.ok
}
