import { ServiceBusyError, createJsonErrorHandler } from '../process/errors.js'

/** 503 with a Retry-After: the pool is saturated or a job ran out of time. */
export { ServiceBusyError }

/** Every giffer error as `{"error":{"code","message","field"}}`; only real bugs are 500s, and logged. */
export const gifferErrorHandler = createJsonErrorHandler('giffer error')
