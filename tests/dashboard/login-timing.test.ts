/**
 * A log-in for an unknown email costs what one for a known email does: one password hash. It
 * compares the times of the two, so it runs with the timed files (vitest.config.ts): beside other
 * files, a starved CPU stretched either side by more than the difference measured.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { dashboardSite, freshEmail, ORIGIN, register } from './helpers.js'

describe('log-in', () => {
  it('makes an unknown email cost one hash too (timing at a real cost)', async () => {
    const { app } = dashboardSite({}, { scryptCost: { logN: 14, r: 8, p: 1 } })
    const { email } = await register(app)
    const time = async (address: string) => {
      const started = performance.now()
      await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email: address, password: 'amber otter lantern 7' })
      return performance.now() - started
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const known: number[] = []
    const unknown: number[] = []
    // One of each first (the first hashes allocate their memory), then interleaved, so both see
    // the same machine; distinct unknown emails keep the throttle out of it.
    await time(email)
    await time(freshEmail())
    for (let round = 0; round < 4; round++) {
      known.push(await time(email))
      unknown.push(await time(freshEmail()))
    }
    const ratio = median(unknown) / median(known)
    expect(ratio).toBeGreaterThan(0.6)
    expect(ratio).toBeLessThan(1.6)
  })
})
