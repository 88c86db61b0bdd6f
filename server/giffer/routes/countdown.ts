/**
 * `POST countdown/create`: a countdown GIF. `POST countdown/live-url`: a signed live-timer URL.
 * The live timer itself (`GET countdown/live.gif|png`) and the pre-set API
 * (`POST countdown/live-deadline`) have modules of their own under live/.
 */
import type { Router } from 'express'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import { LiveTimerAnswers, liveTimerAnswer } from '../live/answer.js'
import { presetRoutes } from '../live/preset.js'
import { liveUrlSchema, mintLiveTimer } from '../live/timer.js'
import { countdownSchema } from '../schemas.js'
import { savedTimerRoutes } from './saved-timers.js'
import { clientGone, postJson, sendImage } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'
import { perAddressLimit } from '../../process/rate-limit.js'

/** The window of the per-address limit on minting live-timer links. */
const MINT_LIMIT_WINDOW_MS = 10 * 60_000

export function countdownRoutes(router: Router, context: GifferContext): void {
  // Minting keeps nothing, but each link is a new timer whose recipients the store keeps: one
  // address mints at a visitor's pace, not a script's.
  const limitMints = perAddressLimit({ limit: context.config.liveMintsPerAddress, windowMs: MINT_LIMIT_WINDOW_MS }, context.config.rateLimitStore?.('liveMint'))

  postJson(router, '/countdown/create', async (req, res) => {
    const job = parseRequest(countdownSchema, req.body)
    sendImage(req, res, await renderImage(context, 'countdown', job, job, { signal: clientGone(res) }), IMMUTABLE)
  })

  router.post('/countdown/live-url', limitMints)
  postJson(router, '/countdown/live-url', async (req, res) => {
    const input = parseRequest(liveUrlSchema, req.body)
    const { query, until } = mintLiveTimer(input, context.now(), context.keys.current)
    const liveBase = `${context.absoluteBase}/countdown`
    res.json({ url: `${liveBase}/live.gif?${query}`, png_url: `${liveBase}/live.png?${query}`, kind: input.kind, ...(until ? { until } : {}) })
  })

  presetRoutes(router, context)
  // One set of answers for signed and saved timers: what they share (a still frame per look at a
  // time, a look's share of the line) holds across both.
  const answers = { gif: new LiveTimerAnswers(context, 'gif'), png: new LiveTimerAnswers(context, 'png') }
  router.get('/countdown/live.gif', liveTimerAnswer(context, answers.gif))
  router.get('/countdown/live.png', liveTimerAnswer(context, answers.png))
  savedTimerRoutes(router, context, context.savedTimers, answers, context.config.savedTimers)
}
