/**
 * Liveness and readiness, as a platform's probes ask them. `/healthz` is liveness: the process
 * answers, nothing more. `/readyz` is readiness: 200 while the process takes traffic, 503 from
 * the moment it starts to drain (SIGTERM), so that a router stops sending it requests before
 * its listener closes. Its body gives each dependency's state; a dependency the pages can do
 * without (all of them today) never makes the process unready.
 */
import type { RequestHandler } from 'express'

/** `GET /healthz`: liveness, the process answers; nothing is checked. */
export const liveness: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' })
}

export interface Dependency {
  name: string
  /** Whether the process can still serve without it; such a dependency never makes it unready. */
  optional: boolean
  /** Whether it answers; asked at most once per CHECK_EVERY_MS, within CHECK_TIMEOUT_MS. */
  reachable(signal: AbortSignal): Promise<boolean>
}

const CHECK_EVERY_MS = 5_000
const CHECK_TIMEOUT_MS = 1_000

/** A dependency's last check: when it began, and what it found (or will find). */
interface Checked {
  at: number
  reachable: Promise<boolean>
}

export class Readiness {
  private draining = false
  private readonly checked = new Map<string, Checked>()

  constructor(private readonly dependencies: Dependency[] = []) {}

  /** Adds dependencies known only once the parts of the process are made. */
  watch(...dependencies: Dependency[]): void {
    this.dependencies.push(...dependencies)
  }

  /** From now on the process says it is not ready; requests are still served. */
  drain(): void {
    this.draining = true
  }

  /** The dependency's state, asked again once the last check is older than CHECK_EVERY_MS (a check ends within CHECK_TIMEOUT_MS). */
  private check(dependency: Dependency): Promise<boolean> {
    const last = this.checked.get(dependency.name)
    if (last && Date.now() - last.at < CHECK_EVERY_MS) return last.reachable
    const timeout = AbortSignal.timeout(CHECK_TIMEOUT_MS)
    const late = new Promise<boolean>((resolve) => timeout.addEventListener('abort', () => resolve(false), { once: true }))
    const reachable = Promise.race([dependency.reachable(timeout), late]).catch(() => false)
    this.checked.set(dependency.name, { at: Date.now(), reachable })
    return reachable
  }

  /** `GET /readyz`: `{status, dependencies: {name: {reachable, optional}}}`, 200 or 503. */
  route(): RequestHandler {
    return async (_req, res) => {
      const states = await Promise.all(this.dependencies.map(async (dependency) => [dependency, await this.check(dependency)] as const))
      const missing = states.some(([dependency, reachable]) => !dependency.optional && !reachable)
      const ready = !this.draining && !missing
      res
        .status(ready ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json({
          status: this.draining ? 'draining' : ready ? 'ready' : 'unavailable',
          dependencies: Object.fromEntries(states.map(([dependency, reachable]) => [dependency.name, { reachable, optional: dependency.optional }])),
        })
    }
  }
}

/** A dependency reached over HTTP: reachable when `url` answers below 500. */
export function httpDependency(name: string, url: string): Dependency {
  return {
    name,
    optional: true,
    reachable: async (signal) => (await fetch(url, { signal, redirect: 'manual' })).status < 500,
  }
}
