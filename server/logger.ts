import { pino, type Logger } from 'pino'
import type { Config } from './config.js'

/** Values that must never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
]

/**
 * Logs go to stdout asynchronously: lines written while a write is under way go out together,
 * instead of a blocking system call per request. Flush the logger before the process exits.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({ level: config.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, pino.destination({ dest: 1, sync: false }))
}
