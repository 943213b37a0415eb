/**
 * The `rubricate` command (ARCHITECTURE.md §7.9): `init`, `cassettes stats | verify | migrate |
 * prune | diff`, `calibrate`, `history`, `help`, `--version`. Every command takes `--help` and `--json`;
 * exit code 0 when done, 1 when the command ran and failed, 2 when the command line is wrong.
 */

import { isRubricateError } from '../errors'
import { terminalText } from '../output-safety/terminal-text'
import { calibrateCommand } from './calibrate-command'
import { CASSETTE_COMMANDS, type CassetteCommand, cassettesCommand } from './cassettes-command'
import { cliMessages } from './cli-messages'
import {
  type CommandIO,
  CommandLineError,
  commandLineError,
  EXIT,
  parseCommandOptions,
} from './command-options'
import { historyCommand } from './history-command'
import { initCommand } from './init-command'
import { packageVersion } from './package-version'

/**
 * Run the `rubricate` command with the arguments after it; returns the exit code. Arguments in,
 * text out, so it is tested without spawning a process.
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
  const [command, ...rest] = argv
  try {
    if (command === undefined) {
      // A bare command is a question without a verb: the usage, on stderr, as a usage error.
      io.err(cliMessages.usage())
      return EXIT.usage
    }
    if (command === '--help' || command === '-h' || command === 'help') return help(rest, io)
    if (command === '--version' || command === '-v') return version(rest, io)
    if (command === 'init') return await initCommand(rest, io)
    if (command === 'calibrate') return await calibrateCommand(rest, io)
    if (command === 'history') return await historyCommand(rest, io)
    if (command === 'cassettes') {
      const [sub, ...args] = rest
      if (sub === '--help' || sub === '-h') return help([], io)
      if (sub === undefined)
        throw commandLineError(
          `"rubricate cassettes" needs a command: ${CASSETTE_COMMANDS.join(', ')}`,
        )
      if (sub.startsWith('-')) throw commandLineError(cliMessages.noSuchOption('cassettes', sub))
      if (!isCassetteCommand(sub)) throw commandLineError(`Unknown command "cassettes ${sub}"`)
      return await cassettesCommand(sub, args, io)
    }
    // `rubricate --verbose` names an option, not a command: say so, and where options go.
    if (command.startsWith('-')) throw commandLineError(cliMessages.noSuchOption('', command))
    throw commandLineError(`Unknown command "${command}"`)
  } catch (error) {
    if (!isRubricateError(error)) throw error
    io.err(error.message)
    return error instanceof CommandLineError ? EXIT.usage : EXIT.failed
  }
}

/** `rubricate help [command] [--json]`: the usage of the whole command, or of one command. */
function help(args: readonly string[], io: CommandIO): number {
  const { values, positionals } = parseCommandOptions('help', args, {})
  const [name] = positionals.filter((arg) => arg !== 'cassettes')
  const text =
    name === undefined
      ? cliMessages.usage()
      : name === 'init'
        ? cliMessages.initUsage()
        : name === 'calibrate'
          ? cliMessages.calibrateUsage()
          : name === 'history'
            ? cliMessages.historyUsage()
            : isCassetteCommand(name)
              ? cliMessages.cassetteUsage(name)
              : undefined
  if (text === undefined) throw new CommandLineError(cliMessages.badUsage(`No command "${name}"`))
  io.out(values.json ? JSON.stringify({ command: name ?? null, usage: text }, null, 2) : text)
  return EXIT.ok
}

/** `rubricate --version [--json]`: the version of the package. */
function version(args: readonly string[], io: CommandIO): number {
  const { values, positionals } = parseCommandOptions('--version', args, {})
  if (positionals.length > 0) {
    throw commandLineError(`"rubricate --version" takes no argument, but got "${positionals[0]}"`)
  }
  if (values.help) {
    io.out(cliMessages.usage())
    return EXIT.ok
  }
  io.out(values.json ? JSON.stringify({ version: packageVersion() }, null, 2) : packageVersion())
  return EXIT.ok
}

function isCassetteCommand(name: string): name is CassetteCommand {
  return (CASSETTE_COMMANDS as readonly string[]).includes(name)
}
