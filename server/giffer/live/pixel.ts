import type { ServerResponse } from 'node:http'

/**
 * The answer of a live timer that shows nothing: a transparent 1×1 image in the format the URL
 * asks for. A timer set to hide shows it once its time is up, and a timer that cannot be drawn
 * now shows it, kept by no one, rather than an error a mail proxy would keep. The site's proxy
 * answers it too when the image service behind it is slow or down.
 */
export const TRANSPARENT_PIXEL = {
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=', 'base64'),
}

export type LiveFormat = keyof typeof TRANSPARENT_PIXEL

/**
 * The paths of live-timer images under the image service's root, signed (`live.gif`) or saved
 * (`t/{id}.gif`), by format, as its router matches them: any case, a slash at the end or not.
 */
const LIVE_IMAGE_PATH = /^\/countdown\/(?:live|t\/[A-Za-z0-9_-]{1,64})\.(gif|png)\/?$/i

/** The format of a live-timer image path (the image service's own, without its mount prefix), or null for any other path. */
export function liveImageFormat(path: string): LiveFormat | null {
  const match = LIVE_IMAGE_PATH.exec(path)
  return match ? (match[1]!.toLowerCase() as LiveFormat) : null
}

/** The headers of a transparent pixel, with the cache rule given. */
export function pixelHeaders(format: LiveFormat, cacheControl: string): Record<string, string> {
  return { 'Content-Type': `image/${format}`, 'Content-Length': String(TRANSPARENT_PIXEL[format].length), 'Cache-Control': cacheControl, 'Cross-Origin-Resource-Policy': 'cross-origin' }
}

/**
 * How long the site's proxy waits for the image service's response headers to a live timer before
 * it answers with the pixel itself: under the 3 s within which every validly signed live timer
 * answers an image, with room for the way back to the mail proxy, and longer than the image
 * service takes for its own answer, so that whatever it could draw in time arrives first.
 */
export const LIVE_PROXY_WAIT_MS = 2_800

/**
 * The pixel for a live timer the image service behind the site's proxy did not draw (slow, down,
 * or answering 5xx or 429), kept by no one and saying why in X-Giffer-Undrawn. Written whole at
 * once, outside Express.
 */
export function sendUndrawnPixel(res: ServerResponse, format: LiveFormat, reason: string): void {
  res.writeHead(200, { ...pixelHeaders(format, 'no-store'), 'X-Giffer-Undrawn': reason })
  res.end(TRANSPARENT_PIXEL[format])
}
