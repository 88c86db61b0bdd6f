import { existsSync } from 'node:fs'

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * The Chromium the browser tests and Lighthouse drive: `CHROME_PATH` when set, else Debian's,
 * else undefined, which lets Playwright use the browser it downloaded itself.
 */
export function browserPath(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined
}

/**
 * The flags every measurement starts Chromium with (Lighthouse, bench:load): no sandbox (tests
 * run as root in containers), no GPU, /tmp instead of a small /dev/shm, and no background
 * traffic or updates to disturb the timings.
 */
export const MEASURING_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run']
