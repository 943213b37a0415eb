import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { type RunMarker, writeRunMarker } from '../../src/cassettes/run/run-marker'
import { pruneCommand } from '../../src/cli/prune-command'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { linked } from '../support/error-page'

let root = ''
const out: string[] = []
const err: string[] = []
const io = () => ({ cwd: root, out: (t: string) => out.push(t), err: (t: string) => err.push(t) })

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rubricate-prune-'))
  out.length = 0
  err.length = 0
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const key = (c: string) => c.repeat(64)

async function entry(key: string, mtime: Date): Promise<void> {
  const dir = join(root, '__cassettes__', key.slice(0, 2))
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, `${key}.json`), '{}')
  await utimes(join(dir, `${key}.json`), mtime, mtime)
}

function marker(extra: Partial<RunMarker> = {}): RunMarker {
  return {
    v: 1,
    startedAt: '2026-01-02T00:00:00.000Z',
    finishedAt: '2026-01-02T00:01:00.000Z',
    complete: true,
    reasons: [],
    cassettes: [{ dir: join(root, '__cassettes__'), used: [key('a')] }],
    ...extra,
  }
}

test('keeps unused entries written after the run started, and files that are not entries', async () => {
  const before = new Date('2026-01-01T00:00:00Z')
  await entry(key('a'), before)
  await entry(key('b'), before)
  await entry(key('c'), new Date('2026-01-03T00:00:00Z'))
  await writeFile(join(root, '__cassettes__', 'README.md'), 'not an entry')
  await writeRunMarker(root, marker())

  expect(await pruneCommand(['--root', '.'], io())).toBe(0)
  expect(out).toEqual([
    `[rubricate] Deleted 1 of 3 cassette entries in "__cassettes__": the last complete run (finished 2026-01-02T00:01:00.000Z) did not use them.\n  __cassettes__/bb/${key('b')}.json`,
    '[rubricate] Kept 1 unused entry in "__cassettes__" written after the last complete run started; a newer run decides about it.',
  ])
  expect((await readdir(join(root, '__cassettes__'))).sort()).toEqual(['README.md', 'aa', 'cc'])
})

test('a complete run that used no cassette folder leaves nothing to prune', async () => {
  await writeRunMarker(root, marker({ cassettes: [] }))
  expect(await rubricateCommand(['cassettes', 'prune'], io())).toBe(1)
  expect(err).toEqual([
    linked(
      '[rubricate] Nothing to prune: the last complete run used no cassette folder. Is the rubricate plugin (or "rubricate/setup") installed in vitest.config?',
      'usage',
    ),
  ])
})

test('--json prints what was deleted and kept per folder, as JSON', async () => {
  const before = new Date('2026-01-01T00:00:00Z')
  await entry(key('a'), before)
  await entry(key('b'), before)
  await writeRunMarker(root, marker())
  expect(await pruneCommand(['--json', '--dry-run'], io())).toBe(0)
  expect(JSON.parse(out[0] as string)).toEqual({
    dryRun: true,
    finishedAt: '2026-01-02T00:01:00.000Z',
    failedRun: false,
    folders: [
      {
        dir: '__cassettes__',
        total: 2,
        deleted: [join('__cassettes__', 'bb', `${key('b')}.json`)],
        keptNewer: 0,
        keptUnchanged: 0,
        keptOthers: 0,
        keptFailed: 0,
      },
    ],
  })
  expect((await readdir(join(root, '__cassettes__'))).sort()).toEqual(['aa', 'bb'])
})
