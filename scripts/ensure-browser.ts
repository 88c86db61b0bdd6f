/**
 * Run by `npm test` before the browser tests: makes sure a Chromium is there, so a fresh machine
 * needs no extra step. In order:
 *   1. `CHROME_PATH`, when set, must point at a browser;
 *   2. Debian's Chromium at /usr/bin/chromium;
 *   3. as root on Debian or Ubuntu, install the `chromium` package with apt-get;
 *   4. Playwright's own browser download (`playwright install chromium`).
 * When none of these works it stops with one line saying what to run.
 * playwright.config.ts picks the same browser (see `browserPath` there).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { DEBIAN_CHROMIUM, browserPath } from './lib/browser.js'

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: 15 * 60_000 })
  return result.status === 0
}

function installDebianChromium(): boolean {
  const isRoot = process.getuid?.() === 0
  if (!isRoot || !existsSync('/usr/bin/apt-get')) return false
  console.log("Installing Debian's chromium for the browser tests")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  return run('apt-get', ['update', '-qq'], env) && run('apt-get', ['install', '-y', '-qq', 'chromium'], env) && existsSync(DEBIAN_CHROMIUM)
}

function installPlaywrightChromium(): boolean {
  console.log("Trying Playwright's own Chromium download")
  return run(process.execPath, ['node_modules/@playwright/test/cli.js', 'install', 'chromium'])
}

function main(): number {
  const configured = process.env.CHROME_PATH
  if (configured) {
    if (existsSync(configured)) return 0
    console.error(`CHROME_PATH=${configured} does not exist: point it at a Chromium or Chrome binary, or unset it.`)
    return 1
  }
  if (browserPath()) return 0
  if (installDebianChromium() || installPlaywrightChromium()) return 0
  console.error('No Chromium for the browser tests: run `apt-get install -y chromium` as root (or set CHROME_PATH), then `npm test` again.')
  return 1
}

process.exitCode = main()
