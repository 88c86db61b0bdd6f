/**
 * The box a process runs in: how much memory it may use before the kernel kills it, and how many
 * CPUs' time it gets. Small platforms give a process far less than the machine it runs on shows:
 * a 512 MB instance on a host with 8 CPUs and 64 GB, where the memory limit is enforced by the
 * kernel's OOM killer and the CPUs by a quota (or by shares, which set no limit at all). Node 20's
 * `os.availableParallelism()` counts the CPUs this process may be scheduled on, not its quota,
 * and `os.totalmem()` is the machine's memory, so both are read here from the process's cgroup:
 *
 *   memory  cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`, the lowest on the way up from the
 *           process's own group; else the machine's memory
 *   CPUs    cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us / cpu.cfs_period_us`, the lowest likewise,
 *           and never more than the CPUs the process may run on (its affinity)
 *
 * Read once at start by every process (the site, the standalone image service, the dashboard),
 * which size themselves from it (`server/process/sizing.ts`).
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface Box {
  /** Bytes the process may use. */
  memoryBytes: number
  /** Where that came from: the cgroup's limit, or the machine's memory when no limit is set. */
  memoryFrom: 'cgroup v2' | 'cgroup v1' | 'machine'
  /** CPUs' time the process gets: a quota of half a CPU is 0.5. */
  cpus: number
  cpusFrom: 'cgroup v2 quota' | 'cgroup v1 quota' | 'affinity'
  /** What the machine shows: its memory and the CPUs this process may be scheduled on. */
  machine: { memoryBytes: number; cpus: number }
}

/** Reads a file's text, or null when it cannot be read. Tests give fixtures instead of the real files. */
export type ReadText = (file: string) => string | null

const readText: ReadText = (file) => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/** cgroup v1 writes "no limit" as a number near 2^63, rounded down to a page. */
const UNLIMITED_FROM = 2 ** 60

interface Mount {
  /** Where the hierarchy is mounted. */
  point: string
  /** The part of the hierarchy the mount shows (a container may see only its own group). */
  root: string
  version: 1 | 2
  /** v1: the controllers of this hierarchy (`memory`, `cpu`, `cpuacct`…). */
  controllers: string[]
}

/** The cgroup mounts of /proc/self/mountinfo. */
function cgroupMounts(mountinfo: string): Mount[] {
  const mounts: Mount[] = []
  for (const line of mountinfo.split('\n')) {
    // id parent major:minor root mount-point options [optional fields…] - fstype source super-options
    const [before, after] = line.split(' - ')
    if (!before || !after) continue
    const fields = before.split(' ')
    const [fstype, , superOptions = ''] = after.split(' ')
    const root = fields[3]
    const point = fields[4]
    if (!root || !point) continue
    if (fstype === 'cgroup2') mounts.push({ point: unescapeMount(point), root: unescapeMount(root), version: 2, controllers: [] })
    else if (fstype === 'cgroup') mounts.push({ point: unescapeMount(point), root: unescapeMount(root), version: 1, controllers: superOptions.split(',') })
  }
  return mounts
}

/** mountinfo writes spaces and a few other characters as octal escapes. */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)))
}

/** This process's group in each hierarchy of /proc/self/cgroup: '' for v2's unified line, else each v1 controller. */
function ownGroups(procCgroup: string): Map<string, string> {
  const groups = new Map<string, string>()
  for (const line of procCgroup.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim())
    if (!match) continue
    const [, controllers, group] = match
    if (controllers === '') groups.set('', group!)
    else for (const controller of controllers!.split(',')) groups.set(controller, group!)
  }
  return groups
}

/**
 * The directories from the process's own group up to the top of what the mount shows. A group
 * outside the mount's root (a container that sees only its own part) starts at the mount itself.
 */
function groupDirs(mount: Mount, group: string): string[] {
  const inside = mount.root === '/' || group === mount.root || group.startsWith(`${mount.root}/`)
  const relative = !inside ? '/' : mount.root === '/' ? group : group.slice(mount.root.length)
  const dirs: string[] = []
  let dir = path.posix.join(mount.point, relative).replace(/(.)\/+$/, '$1')
  for (;;) {
    dirs.push(dir)
    if (dir === mount.point || !dir.startsWith(mount.point)) break
    dir = path.posix.dirname(dir)
  }
  return dirs
}

/** The lowest value any of the directories gives (each read by `valueOf`), or null when none sets one. */
function lowest(dirs: string[], read: ReadText, valueOf: (dir: string, read: ReadText) => number | null): number | null {
  let found: number | null = null
  for (const dir of dirs) {
    const value = valueOf(dir, read)
    if (value !== null && (found === null || value < found)) found = value
  }
  return found
}

function memoryV2(dir: string, read: ReadText): number | null {
  const text = read(path.posix.join(dir, 'memory.max'))?.trim()
  if (!text || text === 'max') return null
  const bytes = Number(text)
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null
}

function memoryV1(dir: string, read: ReadText): number | null {
  const bytes = Number(read(path.posix.join(dir, 'memory.limit_in_bytes'))?.trim())
  return Number.isFinite(bytes) && bytes > 0 && bytes < UNLIMITED_FROM ? bytes : null
}

function cpusV2(dir: string, read: ReadText): number | null {
  const [quota, period] = (read(path.posix.join(dir, 'cpu.max'))?.trim() ?? '').split(/\s+/)
  if (!quota || quota === 'max') return null
  const cpus = Number(quota) / Number(period ?? 100_000)
  return Number.isFinite(cpus) && cpus > 0 ? cpus : null
}

function cpusV1(dir: string, read: ReadText): number | null {
  const quota = Number(read(path.posix.join(dir, 'cpu.cfs_quota_us'))?.trim())
  const period = Number(read(path.posix.join(dir, 'cpu.cfs_period_us'))?.trim())
  if (!Number.isFinite(quota) || quota <= 0 || !Number.isFinite(period) || period <= 0) return null
  return quota / period
}

export interface BoxSources {
  read?: ReadText
  machine?: { memoryBytes: number; cpus: number }
}

/** The box this process runs in (see the top of this file). Never throws: what cannot be read counts as no limit. */
export function readBox({ read = readText, machine = { memoryBytes: os.totalmem(), cpus: os.availableParallelism() } }: BoxSources = {}): Box {
  const mounts = cgroupMounts(read('/proc/self/mountinfo') ?? '')
  const groups = ownGroups(read('/proc/self/cgroup') ?? '')
  let memory: { bytes: number; from: Box['memoryFrom'] } | null = null
  let cpus: { count: number; from: Box['cpusFrom'] } | null = null
  for (const mount of mounts) {
    if (mount.version === 2) {
      const group = groups.get('')
      if (group === undefined) continue
      const dirs = groupDirs(mount, group)
      const bytes = lowest(dirs, read, memoryV2)
      if (bytes !== null && (!memory || bytes < memory.bytes)) memory = { bytes, from: 'cgroup v2' }
      const count = lowest(dirs, read, cpusV2)
      if (count !== null && (!cpus || count < cpus.count)) cpus = { count, from: 'cgroup v2 quota' }
      continue
    }
    // A v1 hierarchy may carry both controllers.
    if (mount.controllers.includes('memory')) {
      const bytes = lowest(groupDirs(mount, groups.get('memory') ?? '/'), read, memoryV1)
      if (bytes !== null && (!memory || bytes < memory.bytes)) memory = { bytes, from: 'cgroup v1' }
    }
    if (mount.controllers.includes('cpu')) {
      const count = lowest(groupDirs(mount, groups.get('cpu') ?? '/'), read, cpusV1)
      if (count !== null && (!cpus || count < cpus.count)) cpus = { count, from: 'cgroup v1 quota' }
    }
  }
  const limitedMemory = memory && memory.bytes < machine.memoryBytes ? memory : null
  const limitedCpus = cpus && cpus.count < machine.cpus ? cpus : null
  return {
    memoryBytes: limitedMemory?.bytes ?? machine.memoryBytes,
    memoryFrom: limitedMemory?.from ?? 'machine',
    cpus: limitedCpus?.count ?? machine.cpus,
    cpusFrom: limitedCpus?.from ?? 'affinity',
    machine,
  }
}
