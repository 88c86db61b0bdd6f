import { describe, expect, it } from 'vitest'
import { describeSharedState } from '../../server/process/shared-state.js'

describe('the start-up line for shared state', () => {
  const base = { stateDir: '/srv/data', firstOpensFile: 'live-timers.sqlite', savedTimersFile: 'saved-timers.sqlite', drawsImages: true }

  it("says first opens and uploads are on this machine's disk without Redis, and to set REDIS_URL", () => {
    const { message, fields } = describeSharedState(base)
    expect(message).toBe(
      "shared state: counts in this process's memory, live timers' first opens in /srv/data/live-timers.sqlite (this machine's disk), saved timers in /srv/data/saved-timers.sqlite (this machine's disk), uploads in /srv/data/uploads (this machine's disk); where the disk is replaced at each deploy, or with more than one machine, set REDIS_URL",
    )
    expect(fields.firstOpens).toBe("/srv/data/live-timers.sqlite (this machine's disk)")
  })

  it('says Redis (without its password) and S3 when they are set', () => {
    const { message } = describeSharedState({ ...base, redisUrl: 'redis://:hunter2@cache.internal:6379/0', s3Bucket: 'photos' })
    expect(message).toBe("shared state: counts in Redis (redis://:***@cache.internal:6379/0), live timers' first opens in Redis (redis://:***@cache.internal:6379/0), saved timers in Redis (redis://:***@cache.internal:6379/0), uploads in S3 bucket photos")
    expect(message).not.toContain('hunter2')
  })

  it('leaves out what a site that forwards images to another service does not keep', () => {
    expect(describeSharedState({ ...base, drawsImages: false }).message).toBe("shared state: counts in this process's memory")
  })
})
