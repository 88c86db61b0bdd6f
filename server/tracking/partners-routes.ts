/** `GET api/v1/partners/track?r={code}&e=unique`: records a referral hit of the visitor the request names (its address as `trust proxy` reads it). */
import type { Router } from 'express'
import type { DashboardContext } from '../dashboard/context.js'

const REFERRAL_CODE = /^[A-Za-z0-9_-]{1,64}$/

export function partnerRoutes(router: Router, context: DashboardContext): void {
  router.get('/api/v1/partners/track', (req, res) => {
    const code = req.query.r
    if (typeof code !== 'string' || !REFERRAL_CODE.test(code)) {
      res.status(400).json({ errors: { r: ['r must be a referral code of 1 to 64 letters, digits, - or _'] } })
      return
    }
    context.recordReferral(code, req.query.e === 'unique', req.ip)
    res.set('Cache-Control', 'no-store').json({ ok: true })
  })
}
