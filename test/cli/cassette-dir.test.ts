// The cassette folder of a command (issue 18, item 6): --dir when given, else the rubricate
// plugin's cassettes.dir read from the Vitest config with Vitest's own resolver, else the default.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { linkedPattern } from '../support/error-page'
import { copyFixture, removeCopy } from '../support/run-vitest'

let cwd = ''
// A copy with the three folders the configs and --dir name, empty: a command refuses a folder
// that does not exist, and --allow-empty accepts one with no entries.
beforeAll(async () => {
  cwd = await copyFixture('cli-config')
  for (const dir of ['recordings', 'other', '__cassettes__']) mkdirSync(join(cwd, dir))
})
afterAll(() => removeCopy(cwd))
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })

beforeEach(() => {
  out = []
  err = []
})

test('without --dir, the folder is the plugin option of the Vitest config in the current folder', async () => {
  expect(await run('cassettes', 'stats', '--json', '--allow-empty')).toBe(0)
  expect(JSON.parse(out[0] as string).dir).toBe(join(cwd, 'recordings'))
  expect(await run('cassettes', 'verify', '--allow-empty')).toBe(0)
  expect(out[1]).toContain('in recordings/ verified')
})

test('--dir wins over the config, and --config names another config', async () => {
  expect(await run('cassettes', 'stats', '--json', '--allow-empty', '--dir', 'other')).toBe(0)
  expect(JSON.parse(out[0] as string).dir).toBe(join(cwd, 'other'))
  expect(
    await run('cassettes', 'stats', '--json', '--allow-empty', '--config', 'plain.config.ts'),
  ).toBe(0)
  expect(JSON.parse(out[1] as string).dir).toBe(join(cwd, '__cassettes__'))
})

test('a config that cannot be loaded fails and points to --dir; a config that does not exist is a usage error', async () => {
  expect(await run('cassettes', 'stats', '--config', 'broken.config.ts')).toBe(1)
  expect(err[0]).toMatch(
    linkedPattern(
      /^\[rubricate\] Could not read the cassette folder from the Vitest config ".*broken\.config\.ts": loading it failed \(.*the config is broken on purpose.*\)\. Pass the folder with --dir <folder>, or the config with --config <file>\.$/s,
      'usage',
    ),
  )
  expect(await run('cassettes', 'verify', '--config', 'missing.config.ts')).toBe(2)
  expect(err[1]).toContain('does not exist')
})

test('every command takes --help', async () => {
  for (const command of ['stats', 'verify', 'prune', 'diff']) {
    expect(await run('cassettes', command, '--help')).toBe(0)
    expect(out.at(-1)).toMatch(new RegExp(`^Usage: rubricate cassettes ${command}`))
  }
  expect(await run('calibrate', '--help')).toBe(0)
  expect(out.at(-1)).toMatch(/^Usage: rubricate calibrate/)
  expect(err).toEqual([])
})
