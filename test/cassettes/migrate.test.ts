// `rubricate cassettes migrate` over every cassette folder committed in this repository: each
// format-1 entry comes back as format 2 with the same key, request, reply and verdicts, and is
// found by its key from its test's folder.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { type CassetteEntry, judgeVerdicts } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { tempDir } from '../support/temp-dir'

// test/fixtures/prune/__cassettes__ holds placeholder files named by key (prune reads only names
// and times), not entries: it stays as it is.
const COMMITTED = ['examples/__cassettes__', 'examples/failing/__cassettes__']

/**
 * The committed folder (format 2 since it was migrated) as format 1 wrote it: `<k0k1>/<key>.json`,
 * every value inline, pretty-printed. The committed entries were format 1 before.
 */
async function writeAsFormat1(from: string, to: string): Promise<void> {
  for (const entry of (await entriesOf(from)).values()) {
    const file = join(to, entry.key.slice(0, 2), `${entry.key}.json`)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, `${JSON.stringify({ ...entry, v: 1 }, null, 2)}\n`)
  }
}

async function entriesOf(dir: string): Promise<Map<string, CassetteEntry>> {
  const store = new CassetteStore(dir)
  const found = new Map<string, CassetteEntry>()
  for (const { file, key } of (await store.list()).entries) {
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') throw new Error(`${file}: ${entry}`)
    found.set(key, entry)
  }
  return found
}

test.each(COMMITTED)(
  'every entry of %s migrates losslessly and replays with identical verdicts',
  async (folder) => {
    const dir = join(tempDir('rubricate-migrate-'), 'cassettes')
    await writeAsFormat1(join(process.cwd(), folder), dir)
    const before = await entriesOf(dir)
    expect([...before.values()].every((entry) => entry.v === 1)).toBe(true)
    expect(before.size).toBeGreaterThan(0)
    const out: string[] = []
    const err: string[] = []
    const io = {
      cwd: dir,
      out: (text: string) => out.push(text),
      err: (text: string) => err.push(text),
    }
    expect(await rubricateCommand(['cassettes', 'migrate', '--dir', dir], io)).toBe(0)
    expect(err).toEqual([])
    const { entries, others } = await new CassetteStore(dir).list()
    expect(others).toEqual([])
    expect(entries.every((entry) => entry.format === 2)).toBe(true)
    const after = await entriesOf(dir)
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
    const fresh = new CassetteStore(dir)
    for (const [key, old] of before) {
      const migrated = after.get(key) as CassetteEntry
      expect({ ...migrated, v: 1 }).toEqual(old)
      expect(judgeVerdicts(migrated)).toEqual(judgeVerdicts(old))
      // Replay finds it by content, first in the folder of the test that recorded it.
      expect(fresh.readOwn(key, old.recordedBy)).toEqual(migrated)
      if (old.recordedBy) {
        const file = entries.find((entry) => entry.key === key)?.file as string
        expect(relative(dir, file).split('\\').join('/')).toMatch(
          new RegExp(
            `^${old.recordedBy.slice(0, old.recordedBy.indexOf(' > ')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[a-z0-9-]+\\.${key.slice(0, 12)}\\.json$`,
          ),
        )
      }
    }
    // A second migration has nothing to do.
    out.length = 0
    expect(await rubricateCommand(['cassettes', 'migrate', '--dir', dir], io)).toBe(0)
    expect(out.join('\n')).toContain('Nothing to migrate')
    expect(await rubricateCommand(['cassettes', 'verify', '--dir', dir], io)).toBe(0)
  },
)
