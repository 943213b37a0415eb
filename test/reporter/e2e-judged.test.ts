// End to end through everything real: a text rubric judged by a fake OpenAI-compatible judge over
// HTTP, recorded into cassettes on the first run and replayed on CI; the reporter tells which.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import type { FakeOpenAI } from '../../src/testing'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { copyFixture, removeCopy, repoRoot, runVitest } from '../support/run-vitest'

const execFileAsync = promisify(execFile)

let server: FakeOpenAI
let root = ''

beforeAll(async () => {
  server = await startFixtureOpenAI()
  root = await copyFixture('reporter-judged')
})

afterAll(async () => {
  await removeCopy(root)
  await server.close()
})

// rubricate's lines after Vitest's list of the file (which, in the live run, also names the test:
// it was slow; a busy machine makes the replay slow too), and its summary after Vitest's.
const VERDICTS = `   ✓ answers a refund question
     ✓ [required] Mentions refund
     ✓ [required] Mentions sorry
     ○ [optional] Mentions days: The output never says "days".

 Test Files  1 passed (1)
`
const ASSERTIONS = `
 Assertions  1 assertion: 1 passed, 0 failed, 0 errored · 3 criteria: 2 met, 0 required unmet, 1 optional unmet
`

test('a recorded run shows live tokens and their cost; the replayed run on CI shows the same tokens replayed', async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL }
  const recorded = await runVitest(root, [], { env })
  expect(recorded.exitCode).toBe(0)
  expect(recorded.stdout).toContain(' ✓ support.test.ts (2 tests) [...]ms\n')
  expect(recorded.stdout).toContain(VERDICTS)
  expect(recorded.stdout).toContain(ASSERTIONS)
  const live =
    /Judge {2}1 call: 0 replayed, 1 live \(all recorded into cassettes\) · tokens ([\d,]+) live, 0 replayed · cost \$(0\.\d{4})\n/.exec(
      recorded.stdout,
    )
  expect(live, recorded.stdout).not.toBeNull()
  const [, tokens, cost] = live!
  // gpt-4.1-mini has a built-in price; the fake judge reports usage, so the cost is not zero.
  expect(Number(cost)).toBeGreaterThan(0)

  const replayed = await runVitest(root, [], { ci: true, env })
  expect(replayed.exitCode).toBe(0)
  expect(replayed.stdout).toContain(' ✓ support.test.ts (2 tests) [...]ms\n')
  expect(replayed.stdout).toContain(VERDICTS)
  expect(replayed.stdout).toContain(ASSERTIONS)
  expect(replayed.stdout).toContain(
    `      Judge  1 call: 1 replayed, 0 live · tokens 0 live, ${tokens} replayed · cost $0.00\n`,
  )
  expect(server.requests).toHaveLength(1)
})

test('with real cassettes, prune deletes only the entry the complete run did not use', async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL }
  // The recorded entry of the test above, and a stray one that no test asks for.
  const dir = join(root, '__cassettes__')
  const [recorded] = (await new CassetteStore(dir).list()).entries
  expect(recorded).toBeDefined()
  const stray = 'f'.repeat(64)
  await mkdir(join(dir, 'ff'), { recursive: true })
  await copyFile(recorded!.file, join(dir, 'ff', `${stray}.json`))

  const run = await runVitest(root, [], { ci: true, env })
  expect(run.exitCode).toBe(0)
  expect(run.stdout).toContain(
    '  Cassettes  1 entry unused by this complete run (npx rubricate cassettes prune deletes unused entries)\n',
  )
  const cli = [join(repoRoot, 'dist/cli.js'), 'cassettes', 'prune']
  const { stdout } = await execFileAsync(process.execPath, cli, { cwd: root })
  expect(stdout).toContain(`Deleted 1 of 2 cassette entries in "__cassettes__"`)
  expect((await new CassetteStore(dir).list()).entries.map((e) => e.key)).toEqual([recorded!.key])

  // Replays still pass offline: the entry the test needs was kept.
  await expect(runVitest(root, [], { ci: true, env })).resolves.toMatchObject({ exitCode: 0 })
  expect(server.requests).toHaveLength(1)
})

test("a reworded criterion, re-recorded, is one renamed file in the test file's folder: the old entry goes", async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL }
  const dir = join(root, '__cassettes__')
  const git = (...args: string[]) => execFileAsync('git', args, { cwd: root })
  await git('init', '-q')
  await git('add', '-A')
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'recorded')
  const [before] = (await new CassetteStore(dir).list()).entries
  const test = join(root, 'support.test.ts')
  await writeFile(
    test,
    (await readFile(test, 'utf8')).replace('(optional) Mentions days', '(optional) Mentions weeks'),
  )
  const run = await runVitest(root, [], { env })
  expect(run.exitCode, run.stdout + run.stderr).toBe(0)
  const after = (await new CassetteStore(dir).list()).entries
  expect(after).toHaveLength(1)
  expect(after[0]?.key).not.toBe(before?.key)
  const moved = relative(root, after[0]!.file)
  expect(run.stdout).toContain(
    `Deleted 1 cassette entry that this run re-recorded (the test recorded a new entry, its request having changed, and no test used the old one): ${relative(root, before!.file)}.`,
  )
  await git('add', '-A')
  const { stdout: status } = await git(
    'diff',
    '--cached',
    '--name-status',
    '-M',
    '--',
    '__cassettes__',
  )
  // git pairs the deleted entry with the new one: a rename (R and a similarity), not an add.
  const [kind, from, to] = status.trim().split('\t')
  expect(kind).toMatch(/^R\d+$/)
  expect([from, to]).toEqual([relative(root, before!.file), moved])
  // In the folder of the test file that recorded it, and its first lines show the new verdicts.
  expect(dirname(moved)).toBe(dirname(relative(root, before!.file)))
  const text = await readFile(after[0]!.file, 'utf8')
  expect(text.slice(0, text.indexOf('"request"'))).toContain('Mentions weeks')
})
