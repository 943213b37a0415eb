/**
 * `rubricate cassettes diff <old> <new>` and `rubricate cassettes diff --against <git-ref> [--dir]`:
 * the judges' verdicts and scores of two cassette folders, compared per test and criterion. Exit
 * code 1 when a required verdict flipped.
 */

import { relative, resolve, sep } from 'node:path'
import { committedFolder, diffCassetteFolders } from '../cassettes/maintenance/cassette-diff'
import { cassetteDirFor } from './cassette-dir'
import { cliMessages } from './cli-messages'
import { type CommandIO, commandLineError, EXIT, parseCommandOptions } from './command-options'

/** Run `cassettes diff` with the arguments after it; returns the exit code. @internal */
export async function diffCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandOptions('cassettes diff', args, {
    against: { type: 'string' },
    dir: { type: 'string' },
    config: { type: 'string' },
  })
  if (values.help) {
    io.out(cliMessages.diffUsage())
    return EXIT.ok
  }
  const show = (dir: string) => `${relative(io.cwd, dir).split(sep).join('/') || '.'}/`
  let before: string
  let after: string
  let shownBefore: string
  let cleanup = async () => {}
  if (values.against !== undefined) {
    if (positionals.length > 0 || values.against === '')
      throw commandLineError(cliMessages.diffAgainstForm())
    after = await cassetteDirFor(
      io.cwd,
      values.dir as string | undefined,
      values.config as string | undefined,
    )
    const committed = await committedFolder(io.cwd, after, values.against as string)
    before = committed.dir
    cleanup = committed.cleanup
    shownBefore = `${show(after)} at ${values.against}`
  } else {
    if (positionals.length !== 2 || values.dir !== undefined)
      throw commandLineError(cliMessages.diffAgainstForm())
    before = resolve(io.cwd, positionals[0] as string)
    after = resolve(io.cwd, positionals[1] as string)
    shownBefore = show(before)
  }
  try {
    const diff = await diffCassetteFolders(before, after)
    if (values.json) io.out(JSON.stringify(diff, null, 2))
    else io.out(cliMessages.diff(diff, shownBefore, show(after)))
    return diff.requiredFlips > 0 ? EXIT.failed : EXIT.ok
  } finally {
    await cleanup()
  }
}
