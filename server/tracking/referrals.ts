/**
 * Referral hits as a partner's count should see them: a visitor counts once per partner a day,
 * and one address adds at most a few hits an hour whatever codes it sends, so replaying a link
 * (or calling the tracking endpoint in a loop) does not inflate anyone's numbers.
 */
import { createHash } from 'node:crypto'
import { ipKeyGenerator } from 'express-rate-limit'
import type { Database } from '../dashboard/db.js'

export const REFERRAL_RULES = {
  /** A visitor's hit for one partner counts once in this window. */
  perVisitorWindowMs: 24 * 60 * 60 * 1000,
  /** Hits one address may add in an hour, all partners together. */
  perAddressPerHour: 10,
} as const

/** The visitor a hit comes from: the address (IPv6 per /56, one customer's block), hashed so no address is kept. */
export function visitorKey(address: string | undefined): string {
  return createHash('sha256').update(`referral visitor\n${ipKeyGenerator(address ?? 'unknown', 56)}`).digest('hex').slice(0, 32)
}

/** Records a hit unless this visitor has counted for the code lately or its address has sent too many; true when counted. */
export function recordReferralHit(db: Database, hit: { code: string; unique: boolean; visitor: string; now: number }): boolean {
  const { code, unique, visitor, now } = hit
  const seen = db
    .prepare('SELECT 1 AS seen FROM referral_hits WHERE visitor = ? AND code = ? AND created_at > ? LIMIT 1')
    .get(visitor, code, now - REFERRAL_RULES.perVisitorWindowMs)
  if (seen) return false
  const lastHour = Number(db.prepare('SELECT COUNT(*) AS hits FROM referral_hits WHERE visitor = ? AND created_at > ?').get(visitor, now - 3_600_000)?.hits ?? 0)
  if (lastHour >= REFERRAL_RULES.perAddressPerHour) return false
  db.prepare('INSERT INTO referral_hits (code, is_unique, visitor, created_at) VALUES (?, ?, ?, ?)').run(code, unique ? 1 : 0, visitor, now)
  return true
}
