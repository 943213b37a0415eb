// End to end: `rubricate cassettes prune` after real Vitest runs of a copy of the `prune` fixture
// (three cassette entries: two used by its tests, one used by nothing).
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { keys } from '../fixtures/prune/keys'
import { copyFixture, removeCopy, repoRoot, runVitest } from '../support/run-vitest'

const execFileAsync = promisify(execFile)
let root = ''

beforeEach(async () => {
  root = await copyFixture('prune')
})

afterEach(async () => {
  await removeCopy(root)
})

async function prune(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await execFileAsync(
    process.execPath,
    [join(repoRoot, 'dist/cli.js'), 'cassettes', 'prune', ...args],
    { cwd: root },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
  const mask = (text: string) => text.replace(/finished [0-9T:.Z-]+/g, 'finished [time]')
  return { code: result.code, stdout: mask(result.stdout), stderr: mask(result.stderr) }
}

async function entries(): Promise<string[]> {
  const dir = join(root, '__cassettes__')
  const shards = await readdir(dir)
  const files = await Promise.all(
    shards.map(async (s) => (await readdir(join(dir, s))).map((f) => `${s}/${f}`)),
  )
  return files.flat().sort()
}

const entry = (key: string) => `${key.slice(0, 2)}/${key}.json`

test('after a complete run, prune deletes exactly the entries no test used (a dry run deletes none)', async () => {
  const run = await runVitest(root)
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain(
    '  Cassettes  1 entry unused by this complete run (npx rubricate cassettes prune deletes unused entries)',
  )
  const retired = `__cassettes__/${entry(keys.retired)}`

  const dry = await prune('--dry-run')
  expect(dry).toEqual({
    code: 0,
    stdout: `[rubricate] Would delete 1 of 3 cassette entries in "__cassettes__": the last complete run (finished [time]) did not use them.
  ${retired}
Run without --dry-run to delete them.
`,
    stderr: '',
  })
  expect(await entries()).toHaveLength(3)

  const real = await prune()
  expect(real).toEqual({
    code: 0,
    stdout: `[rubricate] Deleted 1 of 3 cassette entries in "__cassettes__": the last complete run (finished [time]) did not use them.
  ${retired}
`,
    stderr: '',
  })
  expect(await entries()).toEqual([entry(keys.angry), entry(keys.refund)].sort())
  // Its shard folder is left empty, so it goes too.
  expect(existsSync(join(root, '__cassettes__', keys.retired.slice(0, 2)))).toBe(false)

  expect(await prune()).toEqual({
    code: 0,
    stdout:
      '[rubricate] Nothing to prune in "__cassettes__": the last complete run used all 2 cassette entries.\n',
    stderr: '',
  })
})

test('after a run filtered with -t, prune refuses, says why, and deletes nothing', async () => {
  expect((await runVitest(root)).exitCode).toBe(0)
  const filtered = await runVitest(root, ['-t', 'refund'])
  expect(filtered.exitCode).toBe(0)
  // The filtered run knows it is not complete, so it reports no unused entries.
  expect(filtered.stdout).not.toContain('Cassettes')

  const refused = await prune()
  expect(refused).toEqual({
    code: 1,
    stdout: '',
    stderr:
      '[rubricate] Not pruning: the last run (finished [time]) was not complete: it was filtered with -t "refund". Prune deletes the cassette entries that the last complete run did not use, so after a partial run it would delete entries that other tests still need. Run the whole suite with "npx vitest run" (no file filter, -t, .only, skip or shard), then prune again.\nSee https://rubricate.github.io/rubricate/errors/usage\n',
  })
  expect(await entries()).toHaveLength(3)
})

test('after a run of one file, or before any run, prune refuses and says why', async () => {
  expect((await prune('--dry-run')).stderr).toBe(
    '[rubricate] Not pruning: no finished Vitest run is recorded for this project (looked in "node_modules/.cache/rubricate"). Prune deletes the cassette entries that the last complete run did not use, so it needs one: run the whole suite with "npx vitest run" (with the rubricate plugin or reporter), then prune again.\nSee https://rubricate.github.io/rubricate/errors/usage\n',
  )
  expect((await runVitest(root, ['refund.test.ts'])).exitCode).toBe(0)
  const refused = await prune()
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(
    'was not complete: it was filtered to files matching "refund.test.ts".',
  )
  expect(await prune('--force')).toEqual({
    code: 2,
    stdout: '',
    stderr:
      '[rubricate] "rubricate cassettes prune" has no option "--force" (it takes --dry-run, --root, --dir, --config, --json and --help). Run "rubricate --help" to see the commands and options.\nSee https://rubricate.github.io/rubricate/errors/usage\n',
  })
  expect(await entries()).toHaveLength(3)
})

/** Write an entry into the copy as a test run through the plugin would: with who recorded it. */
async function recordedBy(key: string, label: string): Promise<void> {
  const entry = {
    v: 1,
    key,
    recordedAt: '2026-01-01T00:00:00.000Z',
    recordedBy: label,
    request: { method: 'POST', endpoint: 'chat/completions', body: { model: 'm' } },
    response: { status: 200, headers: {}, json: {} },
  }
  await mkdir(join(root, '__cassettes__', key.slice(0, 2)), { recursive: true })
  await writeFile(
    join(root, '__cassettes__', key.slice(0, 2), `${key}.json`),
    `${JSON.stringify(entry, null, 2)}\n`,
  )
}

test('after a run with a known failing test, prune deletes only what passed tests proved unused', async () => {
  // The retired entry was recorded by the refund test, which passes without it; another unused
  // entry was recorded by a test that fails before it reaches its call.
  const failingKey = 'f'.repeat(64)
  await recordedBy(keys.retired, 'refund.test.ts > answers a refund question')
  await recordedBy(failingKey, 'flaky.test.ts > is known to fail')
  await writeFile(
    join(root, 'flaky.test.ts'),
    "import { expect, test } from 'vitest'\n\ntest('is known to fail', () => {\n  expect(1).toBe(2)\n})\n",
  )
  const run = await runVitest(root)
  expect(run.exitCode).toBe(1)
  const real = await prune()
  expect(real).toEqual({
    code: 0,
    stdout: `[rubricate] Deleted 1 of 4 cassette entries in "__cassettes__": the last run (finished [time]) ran every test, and the tests that passed and recorded them did not use them.
  __cassettes__/${entry(keys.retired)}
[rubricate] Kept 1 unused entry in "__cassettes__" not recorded by a test that passed: the last run had failed tests, and a test that failed or stopped early may still need it. A run in which every test passes, then prune, decides about it.
`,
    stderr: '',
  })
  expect(await entries()).toEqual([entry(keys.angry), entry(keys.refund), entry(failingKey)].sort())
})

test('a failed run filtered with -t still proves nothing: prune refuses', async () => {
  await writeFile(
    join(root, 'flaky.test.ts'),
    "import { expect, test } from 'vitest'\n\ntest('is known to fail', () => {\n  expect(1).toBe(2)\n})\n",
  )
  expect((await runVitest(root, ['-t', 'fail'])).exitCode).toBe(1)
  const refused = await prune()
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain('was not complete: it did not pass; it was filtered with -t')
  expect(await entries()).toHaveLength(3)
})

test('prune --dir limits it to one folder, and refuses a folder the run did not use', async () => {
  expect((await runVitest(root)).exitCode).toBe(0)
  // A folder that does not exist is a typo, named as one.
  expect((await prune('--dir', 'elsewhere')).stderr).toContain(
    '"elsewhere", the cassette folder given with --dir, does not exist.',
  )
  // One that holds cassettes the last run did not use proves nothing about them.
  const [entry] = readdirSync(join(root, '__cassettes__'), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.json'))
  mkdirSync(join(root, 'elsewhere'))
  copyFileSync(join(root, '__cassettes__', entry as string), join(root, 'elsewhere', 'other.json'))
  expect((await prune('--dir', 'elsewhere')).stderr).toBe(
    '[rubricate] Not pruning "elsewhere": the last run used no entry of that folder, so it proves nothing about it. The run used "__cassettes__"; pass one of them with --dir, or run the suite that uses "elsewhere" first.\nSee https://rubricate.github.io/rubricate/errors/usage\n',
  )
  expect((await prune('--dir', '__cassettes__', '--dry-run')).stdout).toContain(
    'Would delete 1 of 3 cassette entries in "__cassettes__"',
  )
  expect((await prune('--help')).stdout).toMatch(/^Usage: rubricate cassettes prune/)
})
