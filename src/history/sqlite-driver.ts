// The one door to SQLite (ARCHITECTURE.md §9.3). Two drivers with the same synchronous surface:
// `better-sqlite3` when the project has it (a stable binding, no warning), else Node's own
// `node:sqlite` (Node >= 22.13 without a flag; marked experimental, it prints one warning). Node
// 20, the lowest Node rubricate supports, has no `node:sqlite`: there the binding is needed.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { UsageError } from '../errors'
import { historyMessages } from './history-messages'

/** A prepared statement, as both drivers give it. @internal */
export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  get(...params: SqliteValue[]): unknown
  all(...params: SqliteValue[]): unknown[]
}

/** What a statement binds: booleans go in as 0 and 1, absent values as `null`. @internal */
export type SqliteValue = string | number | null

/** An open database, as both drivers give it. @internal */
export interface SqliteDatabase {
  exec(sql: string): void
  prepare(sql: string): SqliteStatement
  close(): void
}

/** Which driver opened a database. @internal */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite'

type Opener = (path: string) => SqliteDatabase

/**
 * Open (or create) a SQLite file with the first driver that loads: `better-sqlite3` resolved from
 * the project root (then from rubricate's own folder), else `node:sqlite`. Neither: a usage error
 * that names both and how to get either.
 * @internal
 */
export function openSqlite(
  path: string,
  root: string,
): { db: SqliteDatabase; driver: SqliteDriverName } {
  const reasons: string[] = []
  const better = loadBetterSqlite(root, reasons)
  if (better) return { db: better(path), driver: 'better-sqlite3' }
  const builtin = loadNodeSqlite(reasons)
  if (builtin) return { db: builtin(path), driver: 'node:sqlite' }
  throw new UsageError(historyMessages.noSqlite(process.versions.node, reasons))
}

function loadBetterSqlite(root: string, reasons: string[]): Opener | undefined {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      // A variable name: no bundler follows it, and the binding stays the project's own.
      const name = 'better-sqlite3'
      const Database = createRequire(from)(name) as new (path: string) => SqliteDatabase
      return (path) => new Database(path)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code !== 'MODULE_NOT_FOUND') {
        // Installed but not loadable (a native build for another Node): said, not skipped.
        reasons.push(`better-sqlite3 did not load: ${(error as Error).message.split('\n')[0]}`)
        return undefined
      }
    }
  }
  reasons.push('better-sqlite3 is not installed')
  return undefined
}

function loadNodeSqlite(reasons: string[]): Opener | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule
  let sqlite: { DatabaseSync: new (path: string) => SqliteDatabase } | undefined
  try {
    sqlite = getBuiltin?.('node:sqlite') as typeof sqlite
  } catch (error) {
    reasons.push(`node:sqlite did not load: ${(error as Error).message.split('\n')[0]}`)
    return undefined
  }
  if (!sqlite?.DatabaseSync) {
    reasons.push(`Node ${process.versions.node} has no node:sqlite (Node 22.13 and later have it)`)
    return undefined
  }
  const { DatabaseSync } = sqlite
  return (path) => new DatabaseSync(path)
}
