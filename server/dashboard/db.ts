/**
 * The dashboard's SQLite database: one file in DATA_DIR, its schema brought up to date at start.
 * The driver and transactions are the process's (../process/sqlite.ts); the accounts code imports
 * them from here beside the database they serve.
 */
import { openSqlite, transaction, type Database } from '../process/sqlite.js'

export { transaction, type Database, type Row } from '../process/sqlite.js'

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
  const db = openSqlite(file)
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
