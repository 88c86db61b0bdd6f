import { existsSync } from 'node:fs'

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * Where Debian's `chromium-headless-shell` package puts Chromium's headless shell: the same Blink
 * and V8 without the browser around them, which is what Playwright itself runs headless tests in.
 * Every browser test passes in both; the shell does the same work in about two thirds of the time.
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

/**
 * The Chromium the measurements and image scripts drive (Lighthouse, bench:load, thumbnails):
 * `CHROME_PATH` when set, else Debian's, else undefined, which lets Playwright use the browser it
 * downloaded itself.
 */
export function browserPath(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined
}

/**
 * The Chromium the browser tests drive: `CHROME_PATH` when set, else Debian's headless shell,
 * else Debian's full browser, else undefined (Playwright's own download, whose headless runs use
 * its headless shell too).
 */
export function testBrowserPath(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH
  return [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM].find((file) => existsSync(file))
}

/**
 * The flags every measurement starts Chromium with (Lighthouse, bench:load): no sandbox (tests
 * run as root in containers), no GPU, /tmp instead of a small /dev/shm, and no background
 * traffic or updates to disturb the timings.
 */
export const MEASURING_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run']
