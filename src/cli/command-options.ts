/** The options of a `rubricate` command, parsed strictly: an unknown option is a usage error. */

import { type ParseArgsConfig, parseArgs } from 'node:util'
import { UsageError } from '../errors'
import { cliMessages } from './cli-messages'

type Options = NonNullable<ParseArgsConfig['options']>

/** Where a command writes; the bin passes the process's streams, tests collect the lines. @internal */
export interface CommandIO {
  cwd: string
  out: (text: string) => void
  err: (text: string) => void
}

/**
 * The command line itself is wrong (an unknown command or option, a missing or extra argument, a
 * bad option value): the command exits 2, where a command that ran and failed exits 1. Its code is
 * `RUBRICATE_USAGE`, like every usage error.
 * @internal
 */
export class CommandLineError extends UsageError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CommandLineError'
  }
}

/** A usage error of the command line, worded with the pointer to `--help`. @internal */
export function commandLineError(problem: string): CommandLineError {
  return new CommandLineError(cliMessages.badUsage(problem))
}

/** Exit codes: 0 success, 1 the command ran and failed, 2 the command line is wrong. @internal */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

/**
 * Parse a command's arguments with its options plus `-h, --help` and `--json`. Node's own wording
 * changes between versions, so an unknown option is said in ours, listing the command's options.
 * @internal
 */
export function parseCommandOptions(
  command: string,
  args: readonly string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const all: Options = {
    ...options,
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  }
  try {
    const parsed = parseArgs({
      args: [...args],
      options: all,
      allowPositionals: true,
      strict: true,
    })
    return {
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
    }
  } catch (error) {
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1]
    const known = [...Object.keys(options), 'json'].map((name) => `--${name}`)
    throw commandLineError(
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option
        ? `"rubricate ${command}" has no option "${option}" (it takes ${known.join(', ')} and --help)`
        : `"rubricate ${command}": ${(error as Error).message}`,
    )
  }
}

/** A command that takes no positional argument refuses one. @internal */
export function refusePositionals(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) {
    throw commandLineError(
      `"rubricate ${command}" takes no argument, but got "${positionals[0]}" (a folder goes after --dir)`,
    )
  }
}
