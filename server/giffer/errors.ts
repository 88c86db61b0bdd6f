import { HttpError, ServiceBusyError, createJsonErrorHandler } from '../process/errors.js'

/** 503 with a Retry-After: the pool is saturated or a job ran out of time. */
export { ServiceBusyError }

/**
 * The client went away before its answer: whatever waited on its behalf (a place in the render
 * line, the memory budget, the upload store) stops with this. Nobody reads the answer; 499 (the
 * status proxies log for it) keeps it out of the faults and the 503 counts.
 */
export class ClientGone extends HttpError {
  constructor() {
    super(499, 'client_gone', 'The client went away before its answer was sent.')
  }
}

/** Every giffer error as `{"error":{"code","message","field"}}`; only real bugs are 500s, and logged. */
export const gifferErrorHandler = createJsonErrorHandler('giffer error')
