/**
 * The dashboard's SQLite database: one file in DATA_DIR, opened with the runtime's own driver
 * (`node:sqlite`, Node 22.5 and later) or with better-sqlite3 where there is none (Node 20).
 * Both are synchronous, so a transaction below runs whole, with no other request in between.
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

/** Schema changes in order; the database remembers how many it has had (`user_version`). */
const MIGRATIONS: string[] = [
  `CREATE TABLE users (
     id INTEGER PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     password_hash TEXT,
     social_provider TEXT,
     tracking TEXT,
     created_at INTEGER NOT NULL,
     password_changed_at INTEGER
   );
   CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL,
     idle_expires_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX sessions_by_user ON sessions(user_id);
   CREATE TABLE reset_tokens (
     token_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     used_at INTEGER
   );
   CREATE INDEX reset_tokens_by_user ON reset_tokens(user_id);
   CREATE TABLE login_throttle (
     email_hash TEXT PRIMARY KEY,
     failures INTEGER NOT NULL,
     last_failed_at INTEGER NOT NULL
   );
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY,
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     text TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE templates (
     id INTEGER PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     kind TEXT NOT NULL CHECK (kind IN ('widget', 'email')),
     hid TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX templates_by_user ON templates(user_id);
   CREATE TABLE referral_hits (
     id INTEGER PRIMARY KEY,
     code TEXT NOT NULL,
     is_unique INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   );`,
  // Who a referral came from (a hash of the visitor's address), so that one visitor counts once.
  `ALTER TABLE referral_hits ADD COLUMN visitor TEXT;
   CREATE INDEX referral_hits_by_visitor ON referral_hits(visitor, created_at);`,
  // Account mail waiting for the SMTP server: kept until it is taken, across restarts.
  `CREATE TABLE mail_queue (
     id INTEGER PRIMARY KEY,
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     text TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX mail_queue_due ON mail_queue(next_attempt_at);`,
]

/** Opens (creating when new) the database and brings its schema up to date. */
export function openDatabase(file: string): Database {
  const db = new (driver())(file)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;')
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
  for (let index = version; index < MIGRATIONS.length; index++) {
    transaction(db, () => {
      db.exec(MIGRATIONS[index]!)
      db.exec(`PRAGMA user_version = ${index + 1}`)
    })
  }
  return db
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
