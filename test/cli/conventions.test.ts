import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeEach, expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { linked } from '../support/error-page'
import { repoRoot } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

let cwd = ''
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })
const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version

beforeEach(() => {
  cwd = tempDir('rubricate-cli-conventions-')
  out = []
  err = []
})

test('--version and -v print the version of the package', async () => {
  expect(await run('--version')).toBe(0)
  expect(await run('-v')).toBe(0)
  expect(out).toEqual([version, version])
})

test('--version and help take --json like every command, and refuse an unknown option with exit 2', async () => {
  expect(await run('--version', '--json')).toBe(0)
  expect(JSON.parse(out.pop() as string)).toEqual({ version })
  expect(await run('help', '--json')).toBe(0)
  const general = JSON.parse(out.pop() as string)
  expect(general.command).toBe(null)
  expect(general.usage).toMatch(/^Usage: rubricate <command> \[options\]\n/)
  expect(await run('help', 'cassettes', 'prune', '--json')).toBe(0)
  const prune = JSON.parse(out.pop() as string)
  expect(prune.command).toBe('prune')
  expect(prune.usage).toMatch(/^Usage: rubricate cassettes prune /)
  expect(await run('--help', 'init')).toBe(0)
  expect(out.pop()).toMatch(/^Usage: rubricate init /)
  expect(await run('--version', '--bogus')).toBe(2)
  expect(err.pop()).toBe(
    linked(
      '[rubricate] "rubricate --version" has no option "--bogus" (it takes --json and --help). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  )
  expect(await run('--version', 'now')).toBe(2)
  expect(err.pop()).toBe(
    linked(
      '[rubricate] "rubricate --version" takes no argument, but got "now". Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  )
  expect(await run('help', '--bogus')).toBe(2)
  expect(out).toEqual([])
})

test('help prints the usage and exits 0; help <command> prints that command usage', async () => {
  expect(await run('help')).toBe(0)
  expect(out.pop()).toMatch(/^Usage: rubricate <command> \[options\]\n/)
  const usages: [string[], RegExp][] = [
    [['help', 'init'], /^Usage: rubricate init /],
    [['help', 'calibrate'], /^Usage: rubricate calibrate /],
    [['help', 'cassettes', 'prune'], /^Usage: rubricate cassettes prune /],
    [['help', 'verify'], /^Usage: rubricate cassettes verify /],
  ]
  for (const [argv, usage] of usages) {
    expect(await run(...argv)).toBe(0)
    expect(out.pop()).toMatch(usage)
  }
  expect(await run('help', 'record')).toBe(2)
  expect(err.pop()).toBe(
    linked(
      '[rubricate] No command "record". Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  )
})

test('every command takes --help and -h, and exits 0', async () => {
  const commands = [
    ['init'],
    ['calibrate'],
    ...['stats', 'verify', 'migrate', 'prune', 'diff'].map((name) => ['cassettes', name]),
  ]
  for (const command of commands) {
    for (const flag of ['--help', '-h']) {
      expect(await run(...command, flag)).toBe(0)
      expect(out.pop()).toMatch(new RegExp(`^Usage: rubricate ${command.join(' ')} `))
    }
  }
  expect(err).toEqual([])
})

test('every command takes --json: the usage of each lists it', async () => {
  for (const name of [
    'init',
    'calibrate',
    'cassettes stats',
    'cassettes verify',
    'cassettes migrate',
    'cassettes prune',
    'cassettes diff',
  ]) {
    expect(await run('help', ...name.split(' '))).toBe(0)
    expect(out.pop()).toContain('--json')
  }
})

test('the usage lists every command, the options and the exit codes', async () => {
  expect(await run('--help')).toBe(0)
  const usage = out[0] as string
  for (const command of [
    'init',
    'cassettes stats',
    'cassettes verify',
    'cassettes migrate',
    'cassettes prune',
    'cassettes diff',
    'calibrate',
    'help',
  ]) {
    expect(usage).toContain(`\n  ${command} `)
  }
  expect(usage).toContain('-v, --version')
  expect(usage).toContain(
    'Exit codes: 0 done; 1 the command ran and failed (a problem found, a required verdict flipped, an error); 2 the command line is wrong.',
  )
})

test('the built bin prints its version, and a bare command exits 2 with the usage on stderr', async () => {
  const bin = join(repoRoot, 'dist/cli.js')
  const { stdout } = await promisify(execFile)(process.execPath, [bin, '--version'], { cwd })
  expect(stdout).toBe(`${version}\n`)
  const bare = await promisify(execFile)(process.execPath, [bin], { cwd }).then(
    () => undefined,
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
  expect(bare?.code).toBe(2)
  expect(bare?.stdout).toBe('')
  expect(bare?.stderr).toMatch(/^Usage: rubricate <command>/)
})
