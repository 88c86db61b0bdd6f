/**
 * Makes sure a Chromium is there, so a fresh machine needs no extra step. Run by `npm test` before
 * the browser tests, which want Chromium's headless shell (`testBrowserPath`); with `--full`, by
 * the scripts that want the whole browser (`browserPath`: thumbnails). In order:
 *   1. `CHROME_PATH`, when set, must point at a browser;
 *   2. Debian's package is there (`chromium-headless-shell`, or `chromium` for `--full`; the tests
 *      also run in `chromium` when only that is installed and the shell cannot be);
 *   3. as root on Debian or Ubuntu, install that package with apt-get;
 *   4. Playwright's own browser download (`playwright install chromium`, `--only-shell` for the tests).
 * When none of these works it stops with one line saying what to run.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL } from './lib/browser.js'

const full = process.argv.includes('--full')
const [wanted, packageName] = full ? [DEBIAN_CHROMIUM, 'chromium'] : [DEBIAN_HEADLESS_SHELL, 'chromium-headless-shell']

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: 15 * 60_000 })
  return result.status === 0
}

function installDebianPackage(): boolean {
  const isRoot = process.getuid?.() === 0
  if (!isRoot || !existsSync('/usr/bin/apt-get')) return false
  console.log(`Installing Debian's ${packageName} for the ${full ? 'scripts that draw pages' : 'browser tests'}`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  return run('apt-get', ['update', '-qq'], env) && run('apt-get', ['install', '-y', '-qq', packageName], env) && existsSync(wanted)
}

function installPlaywrightChromium(): boolean {
  console.log("Trying Playwright's own Chromium download")
  return run(process.execPath, ['node_modules/@playwright/test/cli.js', 'install', 'chromium', ...(full ? [] : ['--only-shell'])])
}

function main(): number {
  const configured = process.env.CHROME_PATH
  if (configured) {
    if (existsSync(configured)) return 0
    console.error(`CHROME_PATH=${configured} does not exist: point it at a Chromium or Chrome binary, or unset it.`)
    return 1
  }
  if (existsSync(wanted)) return 0
  if (installDebianPackage()) return 0
  if (!full && existsSync(DEBIAN_CHROMIUM)) {
    console.log(`The browser tests run in ${DEBIAN_CHROMIUM}; with Debian's chromium-headless-shell they take about a third less time.`)
    return 0
  }
  if (installPlaywrightChromium()) return 0
  console.error(`No Chromium for the ${full ? 'scripts' : 'browser tests'}: run \`apt-get install -y ${packageName}\` as root (or set CHROME_PATH), then try again.`)
  return 1
}

process.exitCode = main()
