/**
 * A box for one process, as a small PaaS instance gives it: a Linux cgroup with a memory limit
 * (enforced by the kernel's OOM killer, no swap) and a CPU quota. cgroup v2 when the unified
 * hierarchy has the memory and cpu controllers, else v1's memory and cpu hierarchies. Needs root.
 * The box is made under this process's own cgroup, so whatever limits the machine sets still
 * apply, and is removed by `remove()`; no other cgroup is touched.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const CGROUP_ROOT = '/sys/fs/cgroup'
const CPU_PERIOD_US = 100_000

export interface BoxLimits {
  memoryBytes: number
  /** CPUs the quota allows (1 = one CPU's time per period). */
  cpus: number
}

export interface BoxReadings {
  usageBytes: number
  /** The highest usage since the box was made, as the kernel counts it (RSS, page cache, kernel memory). */
  peakBytes: number
  oomKills: number
  /** Of the usage now: the processes' own memory, and the page cache of files (reclaimable unless mapped). */
  anonBytes: number
  fileBytes: number
}

export interface CgroupBox {
  version: 1 | 2
  /** A shell prefix that moves the shell into the box before it runs the command (`exec` keeps the pid). */
  enterCommand: string
  read(): BoxReadings
  remove(): void
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
}

/** This process's cgroup path in the hierarchy named by `controller` ('' for v2's unified line). */
function ownPath(controller: string): string {
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, where] = line.split(':')
    if (where === undefined) continue
    if (controller === '' ? controllers === '' : controllers!.split(',').includes(controller)) return where
  }
  return '/'
}

/** The directory of this process's cgroup under a mount, or the mount itself when it is not there (a container's own view). */
function ownDir(mount: string, controller: string): string {
  const dir = path.join(mount, ownPath(controller))
  return existsSync(dir) ? dir : mount
}

function unified(): string | null {
  for (const mount of [CGROUP_ROOT, path.join(CGROUP_ROOT, 'unified')]) {
    const controllers = read(path.join(mount, 'cgroup.controllers'))
    if (controllers && ['memory', 'cpu'].every((name) => controllers.split(' ').includes(name))) return mount
  }
  return null
}

/** A `name value` line of memory.stat. */
function statField(stat: string, name: string): number {
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
}

function makeDir(parent: string, name: string): string {
  const dir = path.join(parent, name)
  mkdirSync(dir)
  return dir
}

function removeDir(dir: string): void {
  // A cgroup can be removed once its processes have gone; they may take a moment to be reaped.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmdirSync(dir)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
    }
  }
  console.warn(`could not remove the cgroup ${dir}`)
}

export function cgroupsAvailable(): string | null {
  if (process.getuid?.() !== 0) return 'making a cgroup needs root'
  if (unified()) return null
  if (existsSync(path.join(CGROUP_ROOT, 'memory', 'memory.limit_in_bytes')) && existsSync(path.join(CGROUP_ROOT, 'cpu', 'cpu.cfs_quota_us'))) return null
  return 'neither cgroup v2 with the memory and cpu controllers nor cgroup v1 memory and cpu hierarchies are mounted'
}

/** Makes a box named `name` with the given limits. */
export function makeBox(name: string, limits: BoxLimits): CgroupBox {
  const quota = String(Math.round(limits.cpus * CPU_PERIOD_US))
  const v2 = unified()
  if (v2) {
    const dir = makeDir(ownDir(v2, ''), name)
    writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes))
    if (existsSync(path.join(dir, 'memory.swap.max'))) writeFileSync(path.join(dir, 'memory.swap.max'), '0')
    writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${CPU_PERIOD_US}`)
    return {
      version: 2,
      enterCommand: `echo $$ > ${path.join(dir, 'cgroup.procs')} && `,
      read: () => {
        const events = read(path.join(dir, 'memory.events')) ?? ''
        const stat = read(path.join(dir, 'memory.stat')) ?? ''
        return {
          usageBytes: Number(read(path.join(dir, 'memory.current')) ?? 0),
          peakBytes: Number(read(path.join(dir, 'memory.peak')) ?? 0),
          oomKills: Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0),
          anonBytes: statField(stat, 'anon'),
          fileBytes: statField(stat, 'file'),
        }
      },
      remove: () => removeDir(dir),
    }
  }
  const memory = makeDir(ownDir(path.join(CGROUP_ROOT, 'memory'), 'memory'), name)
  const cpu = makeDir(ownDir(path.join(CGROUP_ROOT, 'cpu'), 'cpu'), name)
  writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes))
  // No swap: the box's memory is all the process gets, as on Fly.io and Heroku.
  if (existsSync(path.join(memory, 'memory.memsw.limit_in_bytes'))) writeFileSync(path.join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes))
  writeFileSync(path.join(memory, 'memory.swappiness'), '0')
  writeFileSync(path.join(cpu, 'cpu.cfs_period_us'), String(CPU_PERIOD_US))
  writeFileSync(path.join(cpu, 'cpu.cfs_quota_us'), quota)
  return {
    version: 1,
    enterCommand: `echo $$ > ${path.join(memory, 'cgroup.procs')} && echo $$ > ${path.join(cpu, 'cgroup.procs')} && `,
    read: () => {
      const stat = read(path.join(memory, 'memory.stat')) ?? ''
      return {
        usageBytes: Number(read(path.join(memory, 'memory.usage_in_bytes')) ?? 0),
        peakBytes: Number(read(path.join(memory, 'memory.max_usage_in_bytes')) ?? 0),
        oomKills: Number(/^oom_kill (\d+)$/m.exec(read(path.join(memory, 'memory.oom_control')) ?? '')?.[1] ?? 0),
        anonBytes: statField(stat, 'total_rss'),
        fileBytes: statField(stat, 'total_cache'),
      }
    },
    remove: () => {
      removeDir(memory)
      removeDir(cpu)
    },
  }
}
