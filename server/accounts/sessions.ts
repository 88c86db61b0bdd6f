/**
 * Log-in sessions. The cookie holds an opaque random token (256 bits); the database holds only
 * its SHA-256, so a copy of the database opens no session. A session lives while it is used
 * (idle expiry, renewed as the visitor comes back) and never past an absolute cap.
 */
import { createHash, randomBytes } from 'node:crypto'
import { serialize, type SerializeOptions } from 'cookie'
import type { Database } from '../dashboard/db.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export interface SessionPolicy {
  /** A session unused for this long ends. */
  idleMs: number
  /** A session ends this long after the log-in, used or not. */
  absoluteMs: number
}

export const SESSION_POLICY: SessionPolicy = { idleMs: 7 * DAY, absoluteMs: 30 * DAY }

/** The idle expiry is written again only when it would move by more than this (fewer writes). */
const RENEW_AFTER_MS = 10 * MINUTE

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export interface SessionCookie {
  name: string
  options: SerializeOptions
}

/**
 * Behind HTTPS the cookie is `__Host-` prefixed (Secure, Path=/, no Domain: no other host or
 * path can set or shadow it); on plain http, for local development, it cannot be.
 */
export function sessionCookie(secure: boolean): SessionCookie {
  return {
    name: secure ? '__Host-pl_auth' : 'pl_auth',
    options: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  }
}

export interface SessionUser {
  id: number
  email: string
}

export class Sessions {
  constructor(
    private readonly db: Database,
    readonly cookie: SessionCookie,
    private readonly now: () => number,
    readonly policy: SessionPolicy = SESSION_POLICY,
  ) {}

  /** A new session for the user; returns the Set-Cookie value. */
  create(userId: number): string {
    const token = randomBytes(32).toString('base64url')
    const at = this.now()
    const idle = at + this.policy.idleMs
    const absolute = at + this.policy.absoluteMs
    this.db.prepare('INSERT INTO sessions (token_hash, user_id, created_at, idle_expires_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(hashToken(token), userId, at, idle, absolute)
    return this.setCookie(token, Math.min(idle, absolute) - at)
  }

  /**
   * The user of a session token, or null. A live session's idle expiry moves forward (then the
   * returned cookie carries the new lifetime); an expired one is deleted.
   */
  resume(token: string | undefined): { user: SessionUser; renewedCookie: string | null } | null {
    if (!token || token.length > 100) return null
    const tokenHash = hashToken(token)
    const row = this.db
      .prepare('SELECT s.user_id, s.idle_expires_at, s.expires_at, u.email FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?')
      .get(tokenHash)
    if (!row) return null
    const at = this.now()
    if (Number(row.idle_expires_at) <= at || Number(row.expires_at) <= at) {
      this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash)
      return null
    }
    const user = { id: Number(row.user_id), email: String(row.email) }
    const idle = Math.min(at + this.policy.idleMs, Number(row.expires_at))
    if (idle - Number(row.idle_expires_at) < RENEW_AFTER_MS) return { user, renewedCookie: null }
    this.db.prepare('UPDATE sessions SET idle_expires_at = ? WHERE token_hash = ?').run(idle, tokenHash)
    return { user, renewedCookie: this.setCookie(token, idle - at) }
  }

  /** Ends one session (log-out); returns the Set-Cookie value that clears the cookie. */
  end(token: string | undefined): string {
    if (token) this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(hashToken(token))
    return serialize(this.cookie.name, '', { ...this.cookie.options, maxAge: 0 })
  }

  /** Ends every session of a user (after a password reset). */
  endAll(userId: number): void {
    this.db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId)
  }

  /** Deletes sessions past their expiry; run now and then. */
  sweep(): void {
    const at = this.now()
    this.db.prepare('DELETE FROM sessions WHERE idle_expires_at <= ? OR expires_at <= ?').run(at, at)
  }

  private setCookie(token: string, lifetimeMs: number): string {
    return serialize(this.cookie.name, token, { ...this.cookie.options, maxAge: Math.max(1, Math.floor(lifetimeMs / 1000)) })
  }
}
