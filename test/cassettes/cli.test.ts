import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeEach, expect, test } from 'vitest'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import type { CassetteEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { linked } from '../support/error-page'
import { repoRoot } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

let cwd = ''
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })

beforeEach(async () => {
  cwd = tempDir('rubricate-cli-')
  out = []
  err = []
})

function entry(
  model: string,
  content: string,
  recordedAt: string,
  endpoint = 'chat/completions',
): CassetteEntry {
  const body = { model, messages: [{ role: 'user', content }] }
  return {
    v: 1,
    key: computeKey(endpoint, body),
    recordedAt,
    request: { method: 'POST', endpoint, body },
    response: { status: 200, headers: { 'content-type': 'application/json' }, json: { ok: true } },
  }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }
  return ''
}

async function record(...entries: CassetteEntry[]): Promise<CassetteStore> {
  const store = new CassetteStore(join(cwd, '__cassettes__'))
  for (const e of entries) await store.write(e)
  return store
}

test('stats counts entries, bytes, endpoints and models, and names the oldest entry', async () => {
  const old = entry('gpt-4.1', 'a', '2020-01-02T00:00:00.000Z')
  await record(
    old,
    entry('gpt-4.1-mini', 'b', '2026-03-04T00:00:00.000Z'),
    entry('gpt-4.1-mini', 'c', '2026-02-01T00:00:00.000Z'),
  )
  expect(await run('cassettes', 'stats')).toBe(0)
  const [text] = out
  const days = Math.floor((Date.now() - Date.parse(old.recordedAt)) / 86_400_000)
  expect(text?.replace(/\(\d+\.\d KB\)/, '(<size>)')).toBe(`Cassettes in __cassettes__/
  entries    3 (<size>)
  endpoints  chat/completions 3
  models     gpt-4.1-mini 2 · gpt-4.1 1
  oldest     2020-01-02 (${days} days ago) __cassettes__/_shared/chat-completions.${old.key.slice(0, 12)}.json
  newest     2026-03-04`)
  out = []
  expect(await run('cassettes', 'stats', '--json')).toBe(0)
  expect(JSON.parse(out[0] ?? '')).toMatchObject({
    entries: 3,
    models: { 'gpt-4.1-mini': 2, 'gpt-4.1': 1 },
  })
})

test('verify passes a folder of good entries, and an empty or missing folder only with --allow-empty', async () => {
  expect(await run('cassettes', 'verify')).toBe(1)
  expect(err).toHaveLength(1)
  mkdirSync(join(cwd, '__cassettes__'))
  expect(await run('cassettes', 'verify', '--allow-empty')).toBe(0)
  expect(out).toEqual([
    '✓ 0 entries in __cassettes__/ verified: every file parses, every key matches its request, no secret found. The recorded replies are data that only a review can vouch for.',
  ])
  await record(entry('m', 'a', '2026-01-01T00:00:00.000Z'))
  out = []
  expect(await run('cassettes', 'verify', '--dir', '__cassettes__')).toBe(0)
  expect(out).toEqual([
    '✓ 1 entry in __cassettes__/ verified: every file parses, every key matches its request, no secret found. The recorded replies are data that only a review can vouch for.',
  ])
})

test('verify lists every broken file, edited request, stored secret and stray file, and exits 1', async () => {
  const broken = entry('m', 'broken', '2026-01-01T00:00:00.000Z')
  const edited = entry('m', 'edited', '2026-01-01T00:00:00.000Z')
  const leaky = entry('m', 'leaky', '2026-01-01T00:00:00.000Z')
  leaky.response.json = { note: 'key sk-abcdefghijklmnopqrstuvwxyz123' }
  const store = await record(broken, edited, leaky)
  await writeFile(store.file(broken.key), '{"v": 1')
  const editedText = await readFile(store.file(edited.key), 'utf8')
  await writeFile(store.file(edited.key), editedText.replace('"edited"', '"changed by hand"'))
  await writeFile(`${store.file(leaky.key)}.123.1.abc.tmp`, '{')
  expect(await run('cassettes', 'verify')).toBe(1)
  const rel = (key: string) => `__cassettes__/_shared/chat-completions.${key.slice(0, 12)}.json`
  const lines = [
    [rel(broken.key), `it is not valid JSON (${jsonError('{"v": 1')})`],
    [
      rel(edited.key),
      `its request keys to ${computeKey('chat/completions', { model: 'm', messages: [{ role: 'user', content: 'changed by hand' }] })}, not ${edited.key}: the request was edited after recording, so replay will never find it; record it again`,
    ],
    [
      rel(leaky.key),
      'it holds an "sk-..." API key at "response.json.note"; remove it and rotate the secret',
    ],
    [`${rel(leaky.key)}.123.1.abc.tmp`, 'a temporary file left by an interrupted write; delete it'],
  ].sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1))
  expect(err).toEqual([
    [
      '[rubricate] 4 problems in __cassettes__/ (3 entries):',
      ...lines.map(([file, problem]) => `  ${file}: ${problem}`),
      'Fix or delete these files; replay cannot use them as they are.',
    ].join('\n'),
  ])
})

test('usage errors say what is wrong and how to get help, and exit 2', async () => {
  expect(await run()).toBe(2)
  expect(err.shift()).toMatch(/^Usage: rubricate <command> \[options\]/)
  expect(await run('--help')).toBe(0)
  expect(await run('cassettes', 'stat')).toBe(2)
  expect(await run('cassettes', 'stats', '--verbose')).toBe(2)
  expect(await run('cache', 'stats')).toBe(2)
  expect(await run('cassettes')).toBe(2)
  expect(await run('cassettes', 'verify', 'recordings')).toBe(2)
  expect(await run('cassettes', 'prune', '--force')).toBe(2)
  expect(err).toEqual([
    linked(
      '[rubricate] Unknown command "cassettes stat". Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] "rubricate cassettes stats" has no option "--verbose" (it takes --dir, --config, --allow-empty, --json and --help). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] Unknown command "cache". Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] "rubricate cassettes" needs a command: stats, verify, migrate, prune, diff. Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] "rubricate cassettes verify" takes no argument, but got "recordings" (a folder goes after --dir). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] "rubricate cassettes prune" has no option "--force" (it takes --dry-run, --root, --dir, --config, --json and --help). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  ])
})

test('verify --json prints the entries and problems, with the same exit code as the text', async () => {
  await record(entry('m', 'a', '2026-01-01T00:00:00.000Z'))
  expect(await run('cassettes', 'verify', '--json')).toBe(0)
  expect(JSON.parse(out[0] as string)).toEqual({ dir: '__cassettes__/', entries: 1, problems: [] })
  await writeFile(join(cwd, '__cassettes__', 'notes.txt'), 'mine')
  expect(await run('cassettes', 'verify', '--json')).toBe(1)
  expect(JSON.parse(out[1] as string)).toEqual({
    dir: '__cassettes__/',
    entries: 1,
    problems: [
      { file: '__cassettes__/notes.txt', problem: expect.stringContaining('not a cassette entry') },
    ],
  })
  expect(err).toEqual([])
})

test('the built bin runs verify', async () => {
  await record(entry('m', 'a', '2026-01-01T00:00:00.000Z'))
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'dist/cli.js'), 'cassettes', 'verify'],
    { cwd },
  )
  expect(stdout).toBe(
    '✓ 1 entry in __cassettes__/ verified: every file parses, every key matches its request, no secret found. The recorded replies are data that only a review can vouch for.\n',
  )
})
