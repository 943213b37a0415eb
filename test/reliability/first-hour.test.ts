// Group 26 (issue 39, item 6): the first hour of a new user, as one met it. What init prints is a
// test whose failure points at the test, a misplaced option is called an option, and a miss
// shows the recording nearest to the request.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { findNearest } from '../../src/cassettes/exchange/cassette-miss'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import type { CassetteEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { runtimeState } from '../../src/runtime/state'
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

  test('the nearest entry of a miss breaks a tie in differing paths by similarity, not by age', async () => {
    const root = tempDir('rubricate-nearest-')
    mkdirSync(join(root, 'node_modules'))
    runtimeState().run.root = root
    onTestFinished(() => {
      runtimeState().run.root = undefined
    })
    const store = new CassetteStore(join(root, '__cassettes__'))
    const entry = (content: string, recordedAt: string): CassetteEntry => {
      const body = { model: 'm', messages: [{ role: 'user', content }] }
      return {
        v: 1,
        key: computeKey('chat/completions', body),
        recordedAt,
        recordedBy: 'a.test.ts > asks about an order',
        request: { method: 'POST', endpoint: 'chat/completions', body },
        response: { status: 200, headers: {}, json: { ok: true } },
      }
    }
    await store.write(
      entry('Where is my order 124? I ordered it last week.', '2026-01-01T00:00:00.000Z'),
    )
    // Newer, and one differing path like the other: only its text is further from the request.
    await store.write(
      entry('Cancel every subscription on the account now.', '2026-02-01T00:00:00.000Z'),
    )
    const nearest = await findNearest(store, {
      endpoint: 'chat/completions',
      model: 'm',
      body: {
        model: 'm',
        messages: [{ role: 'user', content: 'Where is my order 123? I ordered it last week.' }],
      },
      recordedBy: 'a.test.ts > asks about an order',
    })
    expect(nearest?.paths).toEqual(['messages[0].content'])
    expect(nearest?.entry.request.body).toMatchObject({
      messages: [{ content: 'Where is my order 124? I ordered it last week.' }],
    })
  })
})
