/**
 * `POST countdown/create`: a countdown GIF. `POST countdown/live-url`: a signed live-timer URL.
 * `GET countdown/live.gif|png?…&sig=`: the live timer, drawn for the time left when fetched.
 */
import type { Response, Router } from 'express'
import { badRequest, errorAnswer } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import { liveBucket, liveTimerJob, liveTimerQuery, parseDeadline, verifyLiveParams } from '../live-timer.js'
import { countdownSchema, liveStyleSchema, liveUrlSchema } from '../schemas.js'
import { clientGone, postJson, sendImage, type Handler } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

/** How long browsers and the render cache keep a timer whose deadline has passed. */
const EXPIRED_TIMER_MAX_AGE = 3600

/**
 * What a signed live timer shows when it cannot be drawn now: a transparent pixel, by format.
 * Mail proxies keep a 429 or 5xx and show a broken image long after the server recovers, so a
 * busy server, one out of time or one too small to draw images answers with this instead, kept
 * by no one (`no-store`), and the next open asks again.
 */
const UNDRAWN_TIMER = {
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=', 'base64'),
}

/** Answers a live timer that could not be drawn, naming why in `X-Giffer-Undrawn` (and the request log). */
function sendUndrawnTimer(res: Response, format: 'gif' | 'png', code: string): void {
  res.locals.errorCode = code
  res.set({
    'Content-Type': `image/${format}`,
    'Cache-Control': 'no-store',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Giffer-Undrawn': code,
  })
  res.send(UNDRAWN_TIMER[format])
}

/** The query parameters, each given once: what the signature covers. */
function singleParams(query: Record<string, unknown>): Record<string, string> {
  // No prototype: a parameter named `__proto__` is just a parameter.
  const params: Record<string, string> = Object.create(null)
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') throw badRequest(name, 'must be given once')
    params[name] = value
  }
  return params
}

function liveTimer(context: GifferContext, format: 'gif' | 'png'): Handler {
  return async (req, res) => {
    const params = singleParams(req.query)
    verifyLiveParams(params, context.keys)
    const style = parseRequest(liveStyleSchema, params)
    if (!params.until) throw badRequest('until', 'is required')
    const deadline = parseDeadline(params.until, params.tz)
    const at = context.now()
    const bucket = liveBucket(deadline, at, context.config.liveBucketSeconds)
    const job = liveTimerJob(style, bucket, format)
    const ttlMs = bucket.remainingSeconds === 0 ? EXPIRED_TIMER_MAX_AGE * 1000 : bucket.expiresAt - at
    let rendered
    try {
      rendered = await renderImage(context, `live-${format}`, job, job, { ttlMs, signal: clientGone(res) })
    } catch (error) {
      const { status, code } = errorAnswer(error)
      // Only what a mail proxy would keep is replaced; a client that has gone hears nothing either way.
      if ((status !== 429 && status < 500) || req.socket.destroyed) throw error
      // A fault of ours, which the error handler would have logged; busy and too small are said elsewhere.
      if (status === 500) context.logger.error({ err: error }, 'live timer not drawn')
      return sendUndrawnTimer(res, format, code)
    }
    const maxAge = Math.max(1, Math.ceil(ttlMs / 1000))
    res.set('Expires', new Date(at + maxAge * 1000).toUTCString())
    sendImage(req, res, rendered, `public, max-age=${maxAge}`)
  }
}

export function countdownRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/countdown/create', async (req, res) => {
    const job = parseRequest(countdownSchema, req.body)
    sendImage(req, res, await renderImage(context, 'countdown', job, job, { signal: clientGone(res) }), IMMUTABLE)
  })

  postJson(router, '/countdown/live-url', async (req, res) => {
    const input = parseRequest(liveUrlSchema, req.body)
    const deadline = parseDeadline(input.until, input.tz)
    const { query, until } = liveTimerQuery(input, deadline, context.now(), context.keys.current)
    const liveBase = `${context.absoluteBase}/countdown`
    res.json({ url: `${liveBase}/live.gif?${query}`, png_url: `${liveBase}/live.png?${query}`, until })
  })

  router.get('/countdown/live.gif', liveTimer(context, 'gif'))
  router.get('/countdown/live.png', liveTimer(context, 'png'))
}
