/**
 * Which proxies' `X-Forwarded-*` headers a process believes (`TRUST_PROXY`), and a warning when
 * the setting does not fit where the process runs. Behind a router that connects from an address
 * the setting does not trust, every visitor seems to come from the router: the per-address limits
 * then count everyone together, so the first such request says so in the log.
 */
import express, { type Express, type RequestHandler } from 'express'
import type { Logger } from 'pino'
import { z } from 'zod'

/** Express's `trust proxy` values, from the variable: a hop count, true or false, or addresses and subnets (`loopback`, `10.0.0.0/8`, …). */
export const trustProxySchema = z
  .string()
  .default('loopback')
  .transform((value): number | boolean | string => (/^\d+$/.test(value) ? Number(value) : value === 'true' ? true : value === 'false' ? false : value))
  .refine(
    (value) => {
      try {
        express().set('trust proxy', value)
        return true
      } catch {
        return false
      }
    },
    { message: 'must be a number of hops, true, false, or addresses and subnets separated by commas (loopback, 10.0.0.0/8, …)' },
  )

/**
 * Logs one warning per process the first time a request arrives with X-Forwarded-For from a peer
 * that TRUST_PROXY does not trust, naming the peer and the variable to set.
 */
export function untrustedForwardingWarning(app: Express, logger: Logger): RequestHandler {
  let warned = false
  return (req, _res, next) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined) {
      const peer = req.socket.remoteAddress ?? 'unknown'
      const trusted = (app.get('trust proxy fn') as (address: string, hop: number) => boolean)(peer, 0)
      if (!trusted) {
        warned = true
        logger.warn(
          { peer, forwardedFor: req.headers['x-forwarded-for'], trustProxy: app.get('trust proxy') },
          `X-Forwarded-For came from ${peer}, which TRUST_PROXY does not trust: every visitor is counted as that address. Set TRUST_PROXY to the proxies in front (README: TRUST_PROXY per platform).`,
        )
      }
    }
    next()
  }
}
