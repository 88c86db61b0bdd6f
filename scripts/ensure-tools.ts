/**
 * Run by `npm test` before vitest: makes sure the servers and checkers the tests start are
 * there: `promtool` (checks /metrics as Prometheus reads it) and `redis-server` (two site
 * processes sharing their counters). As root on Debian or Ubuntu the missing ones are installed
 * from Debian's packages (scripts/lib/debian-tools.ts); elsewhere it says what to install, and the
 * tests that need them are skipped with a loud note. An install that could run but failed stops
 * `npm test`. `PROMTOOL`, when set, must point at a promtool.
 */
import { existsSync } from 'node:fs'
import { canInstall, ensureDebianTools, PROMTOOL, REDIS_SERVER } from './lib/debian-tools.js'

function main(): number {
  const configured = process.env.PROMTOOL
  if (configured && !existsSync(configured)) {
    console.error(`PROMTOOL=${configured} does not exist: point it at a promtool binary, or unset it.`)
    return 1
  }
  const wanted = configured ? [REDIS_SERVER] : [PROMTOOL, REDIS_SERVER]
  const missing = ensureDebianTools(wanted)
  if (missing.length === 0) return 0
  const packages = missing.map((tool) => tool.package).join(' ')
  if (!canInstall()) {
    console.warn(`!!! ${missing.map((tool) => tool.binary).join(' and ')} missing and cannot be installed here (needs root and apt-get): the tests that need them will be SKIPPED.`)
    console.warn(`!!! Install them with \`apt-get install --no-install-recommends ${packages}\` to run them.`)
    return 0
  }
  console.error(`Could not install ${packages}: run \`apt-get install -y --no-install-recommends ${packages}\` as root, then \`npm test\` again.`)
  return 1
}

process.exitCode = main()
