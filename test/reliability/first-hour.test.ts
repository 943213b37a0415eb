// Group 26 (issue 39, item 6): the first hour of a new user, as one met it. What init prints is a
// test whose failure points at the test, and a misplaced option is called an option.
import { describe, expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { linked } from '../support/error-page'
import { tempDir } from '../support/temp-dir'

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const cwd = tempDir('rubricate-first-hour-')
  const code = await rubricateCommand(argv, {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  })
  return { code, out, err }
}

describe('26. The first hour', () => {
  test("init's first test is an awaited block, so a failure's code frame points at the test line", async () => {
    const { code, out } = await run('init')
    expect(code).toBe(0)
    // A promise returned from an arrow fails with a frame inside the matcher (dist/); an awaited
    // statement fails at its own line.
    expect(out[1]).toContain(
      [
        "  test('greets the user', async () => {",
        "    await expect('Hello! How can I help you today?').toSatisfyRubric('- Greets the user')",
        '  })',
      ].join('\n'),
    )
  })

  test('an option before any command is called an option, with where options go', async () => {
    const top = await run('--verbose')
    expect(top.code).toBe(2)
    expect(top.err).toEqual([
      linked(
        '[rubricate] "rubricate" has no option "--verbose" (it takes --help and --version); a command\'s options go after the command, as in "rubricate cassettes verify --dir <folder>". Run "rubricate --help" to see the commands and options.',
        'usage',
      ),
    ])
    const cassettes = await run('cassettes', '--dir', 'x')
    expect(cassettes.code).toBe(2)
    expect(cassettes.err).toEqual([
      linked(
        '[rubricate] "rubricate cassettes" has no option "--dir" (it takes --help); a command\'s options go after the command, as in "rubricate cassettes verify --dir <folder>". Run "rubricate --help" to see the commands and options.',
        'usage',
      ),
    ])
  })
})
