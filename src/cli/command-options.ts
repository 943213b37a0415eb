/** The options of a `rubricate` command, parsed strictly: an unknown option is a usage error. */

import { type ParseArgsConfig, parseArgs } from 'node:util'
import { UsageError } from '../errors'
import { cliMessages } from './cli-messages'

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * Parse a command's arguments with its options plus `-h, --help`. Node's own wording changes
 * between versions, so an unknown option is said in ours, listing the command's options.
 * @internal
 */
export function parseCommandOptions(
  command: string,
  args: readonly string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
    return {
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
    }
  } catch (error) {
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1]
    const known = Object.keys(options).map((name) => `--${name}`)
    const problem =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option
        ? `"rubricate ${command}" has no option "${option}" (it takes ${known.join(', ')} and --help)`
        : `"rubricate ${command}": ${(error as Error).message}`
    throw new UsageError(cliMessages.badUsage(problem))
  }
}
