import { ServiceBusyError, createJsonErrorHandler } from '../errors.js'

/** 503 with a Retry-After: the pool is saturated or a job ran out of time. */
export { ServiceBusyError }

/**
 * Every giffer error as `{"error":{"code","message","field"}}`: the body parser's failures keep
 * their 4xx (malformed JSON 400 `invalid_json`, too large 413…); only real bugs are 500s, and logged.
 */
export const gifferErrorHandler = createJsonErrorHandler({ logMessage: 'giffer error', clientErrors: 'body-parser' })
