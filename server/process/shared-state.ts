/**
 * The start-up line that says where the state every process of a deployment must agree on is
 * kept: the per-address counts, evergreen timers' first opens, saved timers and uploads. Kept on this machine
 * alone, they are lost where a platform replaces the disk at each deploy (Heroku, Render without
 * a disk, Fly without a volume), and not seen by a second machine: the line says so.
 */
import path from 'node:path'
import type { Logger } from 'pino'

export interface SharedStatePlaces {
  /** REDIS_URL, when set. */
  redisUrl?: string
  /** DATA_DIR, resolved. */
  stateDir: string
  /** Whether this process runs the image service itself (not GIFFER_URL). */
  drawsImages: boolean
  /** The upload bucket, when uploads go to S3. */
  s3Bucket?: string
  /** The SQLite files of first opens and of saved timers, as the image service names them. */
  firstOpensFile: string
  savedTimersFile: string
}

/** Where each piece of shared state is kept, and the line that says it. */
export function describeSharedState(places: SharedStatePlaces): { message: string; fields: Record<string, string> } {
  const redis = places.redisUrl ? `Redis (${redactedUrl(places.redisUrl)})` : null
  const fields: Record<string, string> = { counts: redis ?? "this process's memory" }
  if (places.drawsImages) {
    fields.firstOpens = redis ?? `${path.join(places.stateDir, places.firstOpensFile)} (this machine's disk)`
    fields.savedTimers = redis ?? `${path.join(places.stateDir, places.savedTimersFile)} (this machine's disk)`
    fields.uploads = places.s3Bucket ? `S3 bucket ${places.s3Bucket}` : `${path.join(places.stateDir, 'uploads')} (this machine's disk)`
  }
  const parts = [`counts in ${fields.counts}`]
  if (fields.firstOpens) parts.push(`live timers' first opens in ${fields.firstOpens}`)
  if (fields.savedTimers) parts.push(`saved timers in ${fields.savedTimers}`)
  if (fields.uploads) parts.push(`uploads in ${fields.uploads}`)
  const local = !redis && places.drawsImages
  const advice = local ? '; where the disk is replaced at each deploy, or with more than one machine, set REDIS_URL' : ''
  return { message: `shared state: ${parts.join(', ')}${advice}`, fields }
}

export function logSharedState(logger: Logger, places: SharedStatePlaces): void {
  const { message, fields } = describeSharedState(places)
  logger.info({ sharedState: fields }, message)
}

/** A Redis URL without its password, for the log. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'REDIS_URL'
  }
}
