/**
 * Run by `npm test` before vitest: makes sure `promtool` is there, so the metrics test can check
 * /metrics the way Prometheus reads it. In order:
 *   1. `PROMTOOL`, when set, must point at it;
 *   2. a `promtool` on PATH (Debian's is /usr/bin/promtool);
 *   3. as root on Debian or Ubuntu, Debian's `prometheus` package, without its recommendations.
 *      Only its promtool is used: if the package started its server, that server is stopped.
 * Without root or apt-get nothing can be installed: it says so loudly and the test is skipped.
 * An install that could run but failed stops `npm test`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promtoolPath } from './lib/promtool.js'

/** apt-get waits this long for another install's lock before giving up; then one more try. */
const APT_LOCK_TIMEOUT_S = 300
const APT_TRIES = 3

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: 15 * 60_000 })
  return result.status === 0
}

/** Ids of the running `prometheus` servers. */
function prometheusServers(): number[] {
  const result = spawnSync('pgrep', ['-x', 'prometheus'], { encoding: 'utf8' })
  return result.stdout.split('\n').filter(Boolean).map(Number)
}

function installDebianPrometheus(): boolean {
  console.log("Installing Debian's prometheus package for promtool (the metrics test checks /metrics with it)")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const lock = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_S}`]
  const before = new Set(prometheusServers())
  let installed = false
  for (let attempt = 1; attempt <= APT_TRIES && !installed; attempt++) {
    if (attempt > 1) spawnSync('sleep', ['10'])
    installed =
      run('apt-get', [...lock, 'update', '-qq'], env) &&
      run('apt-get', [...lock, 'install', '-y', '-qq', '--no-install-recommends', 'prometheus'], env)
  }
  // The package may start its server (systemd or init script); only promtool is wanted here.
  for (const pid of prometheusServers().filter((pid) => !before.has(pid))) {
    console.log(`Stopping the prometheus server the package started (pid ${pid})`)
    process.kill(pid, 'SIGTERM')
  }
  return installed && promtoolPath() !== undefined
}

function main(): number {
  const configured = process.env.PROMTOOL
  if (configured) {
    if (existsSync(configured)) return 0
    console.error(`PROMTOOL=${configured} does not exist: point it at a promtool binary, or unset it.`)
    return 1
  }
  if (promtoolPath()) return 0
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canInstall) {
    console.warn('!!! promtool is missing and cannot be installed here (needs root and apt-get): the metrics format check will be SKIPPED.')
    console.warn('!!! Install it with `apt-get install --no-install-recommends prometheus` (or set PROMTOOL) to run it.')
    return 0
  }
  if (installDebianPrometheus()) return 0
  console.error('Could not install promtool: run `apt-get install -y --no-install-recommends prometheus` as root (or set PROMTOOL), then `npm test` again.')
  return 1
}

process.exitCode = main()
