// The run history (ARCHITECTURE.md §9.3): one SQLite file that every run adds itself to. Writers
// take the write lock first (BEGIN IMMEDIATE) and wait up to BUSY_TIMEOUT_MS for another run that
// holds it, so two runs that finish at once both land; each run is one transaction, so a reader
// never sees half of one.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { isRubricateError, UsageError } from '../errors'
import { redactedValue } from '../output-safety/redacted-value'
import { historyMessages } from './history-messages'
import type { HistoryRun, StoredRun } from './history-run'
import { HISTORY_SCHEMA_VERSION, MIGRATIONS } from './history-schema'
import { openSqlite, type SqliteDatabase, type SqliteDriverName } from './sqlite-driver'

/** How long a run waits for another that is writing, in milliseconds. */
const BUSY_TIMEOUT_MS = 10_000

/** An open history. @internal */
export interface HistoryStore {
  readonly path: string
  readonly driver: SqliteDriverName
  /** Add a run (redacted first); a run whose `runKey` is already there is not added twice. */
  append(run: HistoryRun): number
  /** The last `last` runs (all when absent), oldest first. */
  runs(options?: { last?: number | undefined }): StoredRun[]
  /** A run's records by file, as its JSON report held them. */
  files(id: number): unknown
  close(): void
}

/**
 * Open the history at `path` (created, with its folder, when absent), bring its schema up to this
 * rubricate's version, and return it. A file of a newer schema, or one that is not SQLite, is a
 * usage error.
 * @internal
 */
export function openHistory(path: string, root: string): HistoryStore {
  mkdirSync(dirname(path), { recursive: true })
  const { db, driver } = openSqlite(path, root)
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    migrate(db, path)
  } catch (error) {
    db.close()
    if (isRubricateError(error)) throw error
    throw new UsageError(historyMessages.notAHistory(path, (error as Error).message), {
      cause: error,
    })
  }
  return {
    path,
    driver,
    append: (run) => inTransaction(db, () => insertRun(db, redactedValue(run))),
    runs: (options = {}) => readRuns(db, options.last),
    files: (id) => {
      const row = db.prepare('SELECT files_json FROM runs WHERE id = ?').get(id) as
        | { files_json: string }
        | undefined
      return row ? JSON.parse(row.files_json) : undefined
    },
    close: () => db.close(),
  }
}

function migrate(db: SqliteDatabase, path: string): void {
  inTransaction(db, () => {
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rubricate_history'")
      .get()
    const found = table
      ? Number(
          (
            db.prepare("SELECT value FROM rubricate_history WHERE key = 'schema_version'").get() as
              | { value: number }
              | undefined
          )?.value ?? 0,
        )
      : 0
    if (found > HISTORY_SCHEMA_VERSION) {
      throw new UsageError(historyMessages.newerSchema(path, found, HISTORY_SCHEMA_VERSION))
    }
    if (found === HISTORY_SCHEMA_VERSION) return
    for (let version = found + 1; version <= HISTORY_SCHEMA_VERSION; version++) {
      db.exec(MIGRATIONS[version - 1] as string)
    }
    db.prepare(
      "INSERT INTO rubricate_history (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ).run(HISTORY_SCHEMA_VERSION)
  })
}

// The write lock first: a second writer waits here (busy timeout) instead of failing later, when
// its read lock could not be upgraded.
function inTransaction<T>(db: SqliteDatabase, body: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = body()
    db.exec('COMMIT')
    return result
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

const flag = (value: boolean): number => (value ? 1 : 0)
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value)

function insertRun(db: SqliteDatabase, run: HistoryRun): number {
  const existing = db.prepare('SELECT id FROM runs WHERE run_key = ?').get(run.runKey) as
    | { id: number }
    | undefined
  if (existing) return Number(existing.id)
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO runs (run_key, finished_at, commit_sha, branch, complete, judge_models, assertions,
        assertions_passed, assertions_failed, assertions_errored, judge_calls, input_tokens,
        output_tokens, cost_usd, files_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      run.runKey,
      run.finishedAt,
      orNull(run.commit),
      orNull(run.branch),
      flag(run.complete),
      JSON.stringify(run.judgeModels),
      run.assertions.total,
      run.assertions.passed,
      run.assertions.failed,
      run.assertions.errored,
      run.judgeCalls,
      run.tokens.input,
      run.tokens.output,
      run.costUsd,
      JSON.stringify(run.files ?? null),
    )
  const id = Number(lastInsertRowid)
  const evalRow = db.prepare(
    'INSERT INTO evals (run, file, name, rows, passed, failed, errored, rate, pass_rate, gate_passed, scorers_json, mean_gates_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  for (const e of run.evals) {
    evalRow.run(
      id,
      e.file,
      e.name,
      e.rows,
      e.passed,
      e.failed,
      e.errored,
      e.rate,
      e.passRate,
      flag(e.gatePassed),
      JSON.stringify(e.scorers),
      JSON.stringify(e.meanGates),
    )
  }
  const testRow = db.prepare(
    'INSERT INTO tests (run, file, test, eval, status, score) VALUES (?, ?, ?, ?, ?, ?)',
  )
  for (const t of run.tests) {
    testRow.run(id, t.file, t.test, orNull(t.eval), t.status, orNull(t.score))
  }
  const verdictRow = db.prepare(
    'INSERT INTO verdicts (run, file, test, assertion, assertion_name, criterion, required, satisfied, judge_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  for (const v of run.verdicts) {
    verdictRow.run(
      id,
      v.file,
      v.test,
      v.assertion,
      v.assertionName,
      v.criterion,
      flag(v.required),
      flag(v.satisfied),
      orNull(v.judgeModel),
    )
  }
  const scoreRow = db.prepare(
    'INSERT INTO scores (run, file, test, assertion, scorer, score, threshold, passed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  for (const s of run.scores) {
    scoreRow.run(
      id,
      s.file,
      s.test,
      s.assertion,
      s.scorer,
      s.score,
      orNull(s.threshold),
      flag(s.passed),
    )
  }
  return id
}

type Row = Record<string, unknown>
const str = (value: unknown): string | undefined => (value === null ? undefined : String(value))
const num = (value: unknown): number | undefined => (value === null ? undefined : Number(value))

function readRuns(db: SqliteDatabase, last: number | undefined): StoredRun[] {
  const rows = (
    last === undefined
      ? db.prepare('SELECT * FROM runs ORDER BY id DESC').all()
      : db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(last)
  ).reverse() as Row[]
  if (rows.length === 0) return []
  const first = Number(rows[0]?.id)
  const byRun = <T>(sql: string, map: (row: Row) => T): Map<number, T[]> => {
    const out = new Map<number, T[]>()
    for (const row of db.prepare(sql).all(first) as Row[]) {
      const list = out.get(Number(row.run)) ?? []
      list.push(map(row))
      out.set(Number(row.run), list)
    }
    return out
  }
  const evals = byRun('SELECT * FROM evals WHERE run >= ? ORDER BY rowid', (r) => ({
    file: String(r.file),
    name: String(r.name),
    rows: Number(r.rows),
    passed: Number(r.passed),
    failed: Number(r.failed),
    errored: Number(r.errored),
    rate: Number(r.rate),
    passRate: Number(r.pass_rate),
    gatePassed: r.gate_passed === 1,
    scorers: JSON.parse(String(r.scorers_json)),
    meanGates: JSON.parse(String(r.mean_gates_json)),
  }))
  const tests = byRun('SELECT * FROM tests WHERE run >= ? ORDER BY rowid', (r) => ({
    file: String(r.file),
    test: String(r.test),
    eval: str(r.eval),
    status: String(r.status),
    score: num(r.score),
  }))
  const verdicts = byRun('SELECT * FROM verdicts WHERE run >= ? ORDER BY rowid', (r) => ({
    file: String(r.file),
    test: String(r.test),
    assertion: Number(r.assertion),
    assertionName: String(r.assertion_name),
    criterion: String(r.criterion),
    required: r.required === 1,
    satisfied: r.satisfied === 1,
    judgeModel: str(r.judge_model),
  }))
  const scores = byRun('SELECT * FROM scores WHERE run >= ? ORDER BY rowid', (r) => ({
    file: String(r.file),
    test: String(r.test),
    assertion: Number(r.assertion),
    scorer: String(r.scorer),
    score: Number(r.score),
    threshold: num(r.threshold),
    passed: r.passed === 1,
  }))
  return rows.map((r) => {
    const id = Number(r.id)
    return {
      id,
      runKey: String(r.run_key),
      finishedAt: String(r.finished_at),
      commit: str(r.commit_sha),
      branch: str(r.branch),
      complete: r.complete === 1,
      judgeModels: JSON.parse(String(r.judge_models)),
      assertions: {
        total: Number(r.assertions),
        passed: Number(r.assertions_passed),
        failed: Number(r.assertions_failed),
        errored: Number(r.assertions_errored),
      },
      judgeCalls: Number(r.judge_calls),
      tokens: { input: Number(r.input_tokens), output: Number(r.output_tokens) },
      costUsd: Number(r.cost_usd),
      evals: evals.get(id) ?? [],
      tests: tests.get(id) ?? [],
      verdicts: verdicts.get(id) ?? [],
      scores: scores.get(id) ?? [],
    }
  })
}
