/**
 * Programs from Debian's packages that the tests and scripts use (promtool, redis-server,
 * nginx): found on PATH, or, as root on Debian or Ubuntu, installed with apt-get. A package
 * that starts its own server on install (redis-server, nginx, prometheus) has it stopped again:
 * tests start their own on free loopback ports, and nothing is left running.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'

export interface DebianTool {
  /** The program looked for on PATH. */
  binary: string
  /** The Debian package that has it. */
  package: string
  /** Where Debian puts it, when PATH does not lead there (sbin for a plain user). */
  debianPath: string
  /** The server process the package may start on install, stopped again. */
  server?: string
}

export const PROMTOOL: DebianTool = { binary: 'promtool', package: 'prometheus', debianPath: '/usr/bin/promtool', server: 'prometheus' }
export const REDIS_SERVER: DebianTool = { binary: 'redis-server', package: 'redis-server', debianPath: '/usr/bin/redis-server', server: 'redis-server' }
export const NGINX: DebianTool = { binary: 'nginx', package: 'nginx-light', debianPath: '/usr/sbin/nginx', server: 'nginx' }

/** apt-get waits this long for another install's lock; then tries again, a few times. */
const APT_LOCK_TIMEOUT_S = 300
const APT_TRIES = 3

/** The tool's path, or undefined when it is not installed. */
export function toolPath(tool: DebianTool): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)
  return [...dirs.map((dir) => path.join(dir, tool.binary)), tool.debianPath].find((file) => existsSync(file))
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  console.log(`$ ${command} ${args.join(' ')}`)
  return spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: 15 * 60_000 }).status === 0
}

function pids(name: string): number[] {
  return spawnSync('pgrep', ['-x', name], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number)
}

export const canInstall = () => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')

/**
 * Installs the missing ones in one apt-get run (without recommendations). Returns the tools
 * still missing afterwards: all of the missing ones when nothing can be installed here.
 */
export function ensureDebianTools(tools: DebianTool[]): DebianTool[] {
  const missing = tools.filter((tool) => !toolPath(tool))
  if (missing.length === 0 || !canInstall()) return missing
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const lock = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_S}`]
  const servers = missing.flatMap((tool) => (tool.server ? [tool.server] : []))
  const before = new Set(servers.flatMap(pids))
  console.log(`Installing Debian's ${missing.map((tool) => tool.package).join(', ')} for the tests and scripts that use them`)
  let installed = false
  for (let attempt = 1; attempt <= APT_TRIES && !installed; attempt++) {
    if (attempt > 1) spawnSync('sleep', ['10'])
    installed = run('apt-get', [...lock, 'update', '-qq'], env) && run('apt-get', [...lock, 'install', '-y', '-qq', '--no-install-recommends', ...missing.map((tool) => tool.package)], env)
  }
  for (const pid of servers.flatMap(pids).filter((pid) => !before.has(pid))) {
    console.log(`Stopping the server the package started (pid ${pid})`)
    process.kill(pid, 'SIGTERM')
  }
  return tools.filter((tool) => !toolPath(tool))
}
