/**
 * The `rubricate cassettes prune [--dry-run] [--dir <folder>] [--config <file>] [--root <dir>]`
 * command: arguments in, text out.
 */

import { relative, resolve } from 'node:path'
import { pruneCassettes } from '../cassettes/maintenance/prune'
import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'
import { cassetteDirFor } from './cassette-dir'
import { cliMessages } from './cli-messages'

/** Where the command writes; the CLI passes the process's streams. @internal */
export interface CommandIO {
  cwd: string
  out: (text: string) => void
  err: (text: string) => void
}

/**
 * Run prune with the arguments after `rubricate cassettes prune`; returns the exit code.
 * @internal
 */
export async function pruneCommand(args: readonly string[], io: CommandIO): Promise<number> {
  try {
    let dryRun = false
    let root = io.cwd
    let dir: string | undefined
    let config: string | undefined
    const value = (arg: string, name: string, next: string | undefined) =>
      arg === name ? next : arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : undefined
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!
      const next = args[i + 1]
      const takes = (name: string) => arg === name && next !== undefined
      if (arg === '--help' || arg === '-h') {
        io.out(cliMessages.pruneUsage())
        return 0
      }
      if (arg === '--dry-run') dryRun = true
      else if (takes('--root') || arg.startsWith('--root=')) {
        root = resolve(io.cwd, value(arg, '--root', next)!)
        if (arg === '--root') i++
      } else if (takes('--dir') || arg.startsWith('--dir=')) {
        dir = value(arg, '--dir', next)
        if (arg === '--dir') i++
      } else if (takes('--config') || arg.startsWith('--config=')) {
        config = value(arg, '--config', next)
        if (arg === '--config') i++
      } else throw new UsageError(messages.pruneUnknownArgument(arg))
    }
    // Without --dir or --config, every folder the run used; with either, that one folder.
    const only =
      dir !== undefined || config !== undefined
        ? await cassetteDirFor(io.cwd, dir, config)
        : undefined
    const { finishedAt, failedRun, folders } = await pruneCassettes(root, { dryRun, dir: only })
    for (const result of folders) {
      const shown = relative(io.cwd, result.dir) || '.'
      const files = result.deleted.map((file) => relative(io.cwd, file))
      io.out(
        files.length === 0
          ? messages.nothingToPrune(result.total, shown, failedRun)
          : messages.pruned(dryRun, files, result.total, shown, finishedAt, failedRun),
      )
      if (result.keptNewer > 0) io.out(messages.prunedKeptNewer(result.keptNewer, shown))
      if (result.keptOthers > 0) io.out(messages.prunedKeptOthers(result.keptOthers, shown))
      if (result.keptFailed > 0) io.out(messages.prunedKeptFailed(result.keptFailed, shown))
    }
    return 0
  } catch (error) {
    if (!isRubricateError(error)) throw error
    io.err(error.message)
    return 1
  }
}
