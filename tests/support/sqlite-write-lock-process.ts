/**
 * Another process holding a SQLite file's write lock, started by `writeLockInAnotherProcess`
 * (./sqlite-write-lock.ts) with the file and how long to hold it: it takes the lock with
 * `BEGIN IMMEDIATE`, says `locked`, lets it go after that long and exits.
 */
import { openSqlite } from '../../server/process/sqlite.js'

const [file, holdMs] = [process.argv[2] ?? '', Number(process.argv[3])]
const db = openSqlite(file)
db.exec('PRAGMA busy_timeout = 5000')
db.exec('BEGIN IMMEDIATE')
process.send!('locked')
setTimeout(() => {
  db.exec('ROLLBACK')
  db.close()
  process.disconnect()
}, holdMs)
