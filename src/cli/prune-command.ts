/** The `rubricate cassettes prune [--dry-run] [--root <dir>]` command: arguments in, text out. */
import { relative, resolve } from 'node:path'
import { pruneCassettes } from '../cassettes/maintenance/prune'
import { isRubricateError, UsageError } from '../errors'
import { messages } from '../messages'

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
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!
      if (arg === '--dry-run') dryRun = true
      else if (arg === '--root' && args[i + 1] !== undefined) root = resolve(io.cwd, args[++i]!)
      else if (arg.startsWith('--root=')) root = resolve(io.cwd, arg.slice('--root='.length))
      else throw new UsageError(messages.pruneUnknownArgument(arg))
    }
    const { finishedAt, folders } = await pruneCassettes(root, { dryRun })
    for (const result of folders) {
      const dir = relative(io.cwd, result.dir) || '.'
      const files = result.deleted.map((file) => relative(io.cwd, file))
      io.out(
        files.length === 0
          ? messages.nothingToPrune(result.total, dir)
          : messages.pruned(dryRun, files, result.total, dir, finishedAt),
      )
      if (result.keptNewer > 0) io.out(messages.prunedKeptNewer(result.keptNewer, dir))
      if (result.keptOthers > 0) io.out(messages.prunedKeptOthers(result.keptOthers, dir))
    }
    return 0
  } catch (error) {
    if (!isRubricateError(error)) throw error
    io.err(error.message)
    return 1
  }
}
