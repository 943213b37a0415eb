// The run history: runs written through the store's API (ten of them, one change between run 5
// and run 6), read back by `rubricate history`; two real processes writing at once; the schema's
// version rule.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { HISTORY_SCHEMA_VERSION } from '../../src/history/history-schema'
import { openHistory } from '../../src/history/history-store'
import { openSqlite } from '../../src/history/sqlite-driver'
import { tempDir } from '../support/temp-dir'
import { commitOf, EVAL_FILE, EVAL_NAME, supportRun } from './history-runs'

const repo = resolve(import.meta.dirname, '../..')

async function history(cwd: string, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await rubricateCommand(['history', ...argv], {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

function tenRuns(dir: string): string {
  const path = join(dir, '.rubricate-history.sqlite')
  const store = openHistory(path, repo)
  for (let n = 1; n <= 10; n++) store.append(supportRun(n))
  store.close()
  return path
}

test('ten runs with the judge model changed at the sixth show the eval and the criterion that moved, and the commit where', async () => {
  const dir = tempDir('rubricate-history-')
  tenRuns(dir)
  const { code, out, err } = await history(dir)
  expect(err).toBe('')
  expect(code).toBe(0)
  expect(out).toContain('Run history .rubricate-history.sqlite: 10 runs.')
  expect(out).toContain(
    `  #6  2026-12-01 08:06  c0ffe06 main  judge gpt-judge-b  2 of 4 assertions passed`,
  )
  expect(out).toContain(
    `  ${EVAL_FILE} › ${EVAL_NAME}  █████▅▅▅▅▅  pass rate 75% over 10 runs, mean "rubric" 0.88`,
  )
  expect(out).toContain('      moved: pass rate 100% → 50% at run #6 (commit c0ffe06)')
  expect(out).toContain('      moved: mean "rubric" 1.00 → 0.75 at run #6 (commit c0ffe06)')
  expect(out).toContain(
    `  ${EVAL_FILE} › ${EVAL_NAME} › Mentions refund [required]  █████▅▅▅▅▅  met 75% (30 of 40)\n      moved: met 100% → 50% at run #6 (commit c0ffe06)`,
  )
  // The criterion that did not move says so by having no "moved" line.
  expect(out).toMatch(/› Is polite \[required\] {2}██████████ {2}met 100% \(40 of 40\)(\n|$)/)
})

test('rubricate history --json holds the runs, each eval and criterion trend, and the moves with their commits', async () => {
  const dir = tempDir('rubricate-history-')
  tenRuns(dir)
  const { code, out } = await history(dir, '--json', '--last', '4')
  expect(code).toBe(0)
  const json = JSON.parse(out)
  expect(json.schemaVersion).toBe(HISTORY_SCHEMA_VERSION)
  expect(json.totalRuns).toBe(10)
  expect(json.runs.map((r: { id: number }) => r.id)).toEqual([7, 8, 9, 10])
  // Over the last four runs, all after the change: nothing moved.
  expect(json.evals[0]).toMatchObject({ name: EVAL_NAME, passRate: 0.5, moved: [] })
  const full = JSON.parse((await history(dir, '--json')).out)
  const refund = full.criteria.find((c: { criterion: string }) => c.criterion === 'Mentions refund')
  expect(refund.moved).toEqual([{ run: 6, commit: commitOf(6), what: 'met', from: 1, to: 0.5 }])
  expect(refund.points).toHaveLength(10)
})

test('two processes adding runs to one history at the same time lose none', async () => {
  const dir = tempDir('rubricate-history-')
  const path = join(dir, 'history.sqlite')
  const script = join(dir, 'append-runs.mjs')
  await build({
    entryPoints: [join(import.meta.dirname, 'append-runs.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'silent',
  })
  // The schema is made first, so both processes race on the runs, not on creating the file.
  openHistory(path, repo).close()
  const child = (name: string) =>
    new Promise<string>((done, fail) => {
      const proc = spawn(process.execPath, [script, path, repo, name, '40'], { stdio: 'pipe' })
      let out = ''
      let err = ''
      proc.stdout.on('data', (chunk) => (out += chunk))
      proc.stderr.on('data', (chunk) => (err += chunk))
      proc.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`exit ${code}: ${err}`))))
    })
  const drivers = await Promise.all([child('a'), child('b')])
  expect(drivers[0]).toMatch(/better-sqlite3|node:sqlite/)
  const store = openHistory(path, repo)
  const runs = store.runs()
  store.close()
  expect(runs).toHaveLength(80)
  expect(new Set(runs.map((r) => r.runKey)).size).toBe(80)
  // Each run whole: its verdicts, tests and eval came with it.
  expect(
    runs.every((r) => r.verdicts.length === 8 && r.tests.length === 4 && r.evals.length === 1),
  ).toBe(true)
}, 60_000)

test('a history written by a newer rubricate is refused, saying to upgrade or use another file', () => {
  const dir = tempDir('rubricate-history-')
  const path = join(dir, 'history.sqlite')
  openHistory(path, repo).close()
  const { db } = openSqlite(path, repo)
  db.prepare("UPDATE rubricate_history SET value = ? WHERE key = 'schema_version'").run(
    HISTORY_SCHEMA_VERSION + 1,
  )
  db.close()
  expect(() => openHistory(path, repo)).toThrow(
    `[rubricate] The run history "${path}" has schema version ${HISTORY_SCHEMA_VERSION + 1}, written by a newer rubricate; this one knows versions up to ${HISTORY_SCHEMA_VERSION} and does not write to it. Upgrade rubricate, or point the history option (or RUBRICATE_HISTORY) at another file.`,
  )
})

test('a file that is not SQLite is refused as a history, naming it', () => {
  const dir = tempDir('rubricate-history-')
  const path = join(dir, 'notes.sqlite')
  writeFileSync(path, 'these are notes, not a database\n'.repeat(40))
  expect(() => openHistory(path, repo)).toThrow(
    `"${path}" could not be opened as a rubricate run history`,
  )
})

test('a run added twice under one key is kept once', () => {
  const dir = tempDir('rubricate-history-')
  const store = openHistory(join(dir, 'h.sqlite'), repo)
  const first = store.append(supportRun(1))
  expect(store.append(supportRun(1))).toBe(first)
  expect(store.runs()).toHaveLength(1)
  store.close()
})

test('rubricate history with no history file says how a run makes one, and exits 1', async () => {
  const dir = tempDir('rubricate-history-')
  const { code, err } = await history(dir)
  expect(code).toBe(1)
  expect(err).toContain(
    '[rubricate] No run history at ".rubricate-history.sqlite". A run adds itself',
  )
})
