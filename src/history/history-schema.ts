// The history's tables (ARCHITECTURE.md §9.3, docs/guide/history.md). The version is the row
// `schema_version` of `rubricate_history`. The migration rule: a later rubricate adds version N+1
// as one more entry of MIGRATIONS (statements that only add: tables, columns with defaults,
// indexes), never edits an earlier one; opening a file of version K < N applies K+1..N in one
// transaction, so every reader and writer sees the whole of a version or none of it. A file of a
// version above N was written by a newer rubricate: this one refuses it rather than guess.

/** The history file when no option or RUBRICATE_HISTORY names one: under the project, not ignored. @internal */
export const DEFAULT_HISTORY_FILE = '.rubricate-history.sqlite'

/** The schema version this rubricate writes. @internal */
export const HISTORY_SCHEMA_VERSION = 1

/** MIGRATIONS[v - 1] takes a file from version v - 1 to v (version 0: an empty file). @internal */
export const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE rubricate_history (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_key TEXT NOT NULL UNIQUE,
  finished_at TEXT NOT NULL,
  commit_sha TEXT,
  branch TEXT,
  complete INTEGER NOT NULL,
  judge_models TEXT NOT NULL,
  assertions INTEGER NOT NULL,
  assertions_passed INTEGER NOT NULL,
  assertions_failed INTEGER NOT NULL,
  assertions_errored INTEGER NOT NULL,
  judge_calls INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  files_json TEXT NOT NULL
);
CREATE TABLE evals (
  run INTEGER NOT NULL REFERENCES runs(id),
  file TEXT NOT NULL,
  name TEXT NOT NULL,
  rows INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  errored INTEGER NOT NULL,
  rate REAL NOT NULL,
  pass_rate REAL NOT NULL,
  gate_passed INTEGER NOT NULL,
  scorers_json TEXT NOT NULL,
  mean_gates_json TEXT NOT NULL
);
CREATE TABLE tests (
  run INTEGER NOT NULL REFERENCES runs(id),
  file TEXT NOT NULL,
  test TEXT NOT NULL,
  eval TEXT,
  status TEXT NOT NULL,
  score REAL
);
CREATE TABLE verdicts (
  run INTEGER NOT NULL REFERENCES runs(id),
  file TEXT NOT NULL,
  test TEXT NOT NULL,
  assertion INTEGER NOT NULL,
  assertion_name TEXT NOT NULL,
  criterion TEXT NOT NULL,
  required INTEGER NOT NULL,
  satisfied INTEGER NOT NULL,
  judge_model TEXT
);
CREATE TABLE scores (
  run INTEGER NOT NULL REFERENCES runs(id),
  file TEXT NOT NULL,
  test TEXT NOT NULL,
  assertion INTEGER NOT NULL,
  scorer TEXT NOT NULL,
  score REAL NOT NULL,
  threshold REAL,
  passed INTEGER NOT NULL
);
CREATE INDEX evals_run ON evals(run);
CREATE INDEX tests_run ON tests(run);
CREATE INDEX verdicts_run ON verdicts(run);
CREATE INDEX scores_run ON scores(run);
`,
]
