/**
 * SQLite for every store of a process that keeps a file in DATA_DIR: the runtime's own driver
 * (`node:sqlite`, Node 22.5 and later), or better-sqlite3 where there is none (Node 20). Both are
 * synchronous, so a transaction below runs whole, with no other request of this process in
 * between; other processes on the same file wait for it (`busy_timeout`).
 */
import { createRequire } from 'node:module'

export type SqlValue = string | number | bigint | null | Uint8Array
export type Row = Record<string, SqlValue>

export interface Statement {
  run(...params: SqlValue[]): { changes: number | bigint }
  get(...params: SqlValue[]): Row | undefined
  all(...params: SqlValue[]): Row[]
}

export interface Database {
  prepare(sql: string): Statement
  exec(sql: string): void
  close(): void
}

type DatabaseConstructor = new (file: string) => Database

function driver(): DatabaseConstructor {
  const builtin = process.getBuiltinModule?.('node:sqlite') as { DatabaseSync: DatabaseConstructor } | undefined
  if (builtin) return builtin.DatabaseSync
  return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor
}

/** Opens (creating when new) a SQLite file with the driver this runtime has. */
export function openSqlite(file: string): Database {
  return new (driver())(file)
}

/** Runs `work` as one write transaction: all of it is kept, or none. */
export function transaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = work()
    db.exec('COMMIT')
    return result
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}
