/**
 * A box for one process, as a small PaaS instance gives it: a Linux cgroup with a memory limit
 * (enforced by the kernel's OOM killer, no swap) and a CPU quota. Needs root.
 *
 * cgroup v2 when the place of the box offers the memory and cpu controllers, else v1's memory and
 * cpu hierarchies:
 *
 *   v2   <parent of this process's group>/<name>/leaf   the limits and the process are in the leaf
 *   v1   <this process's group>/<name>                  in the memory and in the cpu hierarchy
 *
 * In v2 a group gets `memory.max` and `cpu.max` only when its parent hands it those controllers
 * (the parent's `cgroup.subtree_control`), and a group that holds processes cannot hand any on
 * (the root alone may). This process is in its own group, so the box's group goes beside it, and
 * the box's group hands the controllers to a leaf under it, holding no process itself. v1 has no
 * such rule: the box goes under this process's own group, so whatever limits the machine set there
 * still apply.
 *
 * The box makes its own groups only (a group of the same name that is already there is an error,
 * never taken over), and `remove()` removes exactly those, once their processes are gone. The one
 * change to a group it did not make: adding memory and cpu to what the v2 group above the box
 * hands on, when missing (`handOnControllers` says why that holds nobody back).
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const CPU_PERIOD_US = 100_000
const BOX_CONTROLLERS = ['memory', 'cpu']
/** How long `remove()` waits for the box's processes to be gone before it gives up on a group. */
const REMOVE_WAIT_MS = 5_000

/** Where the cgroup file system is and where this process sits in it: the machine's, or a fixture's in tests. */
export interface CgroupFs {
  /** The cgroup file system's mount: v2's unified hierarchy, or a folder of v1 hierarchies (`memory`, `cpu`). */
  root: string
  /** The file that names this process's groups, one `id:controllers:path` line per hierarchy. */
  selfFile: string
}

export const MACHINE_CGROUPS: CgroupFs = { root: '/sys/fs/cgroup', selfFile: '/proc/self/cgroup' }

export interface BoxLimits {
  memoryBytes: number
  /** CPUs the quota allows (1 = one CPU's time per period). */
  cpus: number
  /**
   * The quota's period, µs (default 100 ms, the kernel's). Once a period's quota is spent the box
   * waits for the next one: a shorter period spreads a slowdown evenly instead of in long stops.
   */
  periodUs?: number
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
  /** Stops whatever still runs in the box and removes the groups the box made. */
  remove(): void
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
}

const words = (text: string | null) => (text ?? '').split(/\s+/).filter(Boolean)

/** A word the shell takes as it is, whatever it holds (systemd's group names carry backslashes). */
export const shellWord = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** This process's cgroup path in the hierarchy named by `controller` ('' for v2's unified line). */
function ownPath(fs: CgroupFs, controller: string): string {
  for (const line of (read(fs.selfFile) ?? '').split('\n')) {
    const [, controllers, where] = line.split(':')
    if (where === undefined) continue
    if (controller === '' ? controllers === '' : controllers!.split(',').includes(controller)) return where
  }
  return '/'
}

/** The directory of this process's cgroup under a mount, or null when it is not there (a container's own view). */
function ownDir(mount: string, fs: CgroupFs, controller: string): string | null {
  const dir = path.resolve(mount, `.${ownPath(fs, controller)}`)
  return existsSync(dir) ? dir : null
}

/**
 * Where a v2 box's group goes: beside this process's own group, or under the mount when the process
 * sits at its root or its group is not in view; null when no v2 hierarchy offers memory and cpu there.
 */
function v2Place(fs: CgroupFs): string | null {
  for (const mount of [fs.root, path.join(fs.root, 'unified')]) {
    if (!existsSync(path.join(mount, 'cgroup.controllers'))) continue
    const own = ownDir(mount, fs, '')
    const place = own && own !== path.resolve(mount) ? path.dirname(own) : path.resolve(mount)
    const offered = words(read(path.join(place, 'cgroup.controllers')))
    if (BOX_CONTROLLERS.every((name) => offered.includes(name))) return place
  }
  return null
}

function v1Mounted(fs: CgroupFs): boolean {
  return existsSync(path.join(fs.root, 'memory', 'memory.limit_in_bytes')) && existsSync(path.join(fs.root, 'cpu', 'cpu.cfs_quota_us'))
}

/** A `name value` line of memory.stat. */
function statField(stat: string, name: string): number {
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
}

/**
 * Adds the memory and cpu controllers to what the v2 group `dir` hands to the groups under it, where
 * they are not there yet. This sets no limit: each group under `dir` starts with `max` memory, `max`
 * CPU and the default weight, so nothing that runs there is held back; the kernel starts counting
 * their memory and CPU time, and when every CPU is busy the groups under `dir` share it as groups
 * rather than thread by thread. The controllers stay when the box goes, as other groups may have
 * come to rely on them.
 */
function handOnControllers(dir: string): void {
  const file = path.join(dir, 'cgroup.subtree_control')
  const enabled = words(read(file))
  const missing = BOX_CONTROLLERS.filter((name) => !enabled.includes(name))
  if (missing.length === 0) return
  try {
    writeFileSync(file, missing.map((name) => `+${name}`).join(' '))
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'EBUSY' ? ': the group holds processes of its own' : ''
    throw new Error(`cgroup v2: could not add ${missing.join(' and ')} to ${file} (${(error as Error).message})${why}`)
  }
}

/** Kills every process still in the group `dir`: they are the box's, and a group with processes cannot be removed. */
function stopProcessesIn(dir: string): void {
  for (const pid of words(read(path.join(dir, 'cgroup.procs')))) {
    try {
      process.kill(Number(pid), 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
}

function removeDir(dir: string): void {
  // A cgroup can be removed once its processes have gone (EBUSY until then); they may take a moment to be reaped.
  const until = Date.now() + REMOVE_WAIT_MS
  for (;;) {
    try {
      rmdirSync(dir)
      return
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return
      if (code !== 'EBUSY' || Date.now() >= until) {
        console.warn(`could not remove the cgroup ${dir} (${code})`)
        return
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
    }
  }
}

/** Makes groups one by one; if a step fails, the groups made so far are removed again before the error goes on. */
function makeGroups<T>(build: (makeGroup: (parent: string, name: string) => string) => T): T {
  const made: string[] = []
  try {
    return build((parent, name) => {
      const dir = path.join(parent, name)
      // Not recursive: a group of this name that is already there belongs to someone else.
      mkdirSync(dir)
      made.push(dir)
      return dir
    })
  } catch (error) {
    for (const dir of made.reverse()) removeDir(dir)
    throw error
  }
}

export function cgroupsAvailable(fs: CgroupFs = MACHINE_CGROUPS): string | null {
  if (process.getuid?.() !== 0) return 'making a cgroup needs root'
  if (v2Place(fs) || v1Mounted(fs)) return null
  return 'neither cgroup v2 with the memory and cpu controllers nor cgroup v1 memory and cpu hierarchies are mounted'
}

/** Makes a box named `name` with the given limits. */
export function makeBox(name: string, limits: BoxLimits, fs: CgroupFs = MACHINE_CGROUPS): CgroupBox {
  const period = limits.periodUs ?? CPU_PERIOD_US
  const quota = String(Math.round(limits.cpus * period))
  const place = v2Place(fs)
  if (place) {
    const { group, leaf } = makeGroups((makeGroup) => {
      handOnControllers(place)
      const group = makeGroup(place, name)
      handOnControllers(group)
      const leaf = makeGroup(group, 'leaf')
      writeFileSync(path.join(leaf, 'memory.max'), String(limits.memoryBytes))
      // No swap: the box's memory is all the process gets, as on Fly.io and Heroku.
      if (existsSync(path.join(leaf, 'memory.swap.max'))) writeFileSync(path.join(leaf, 'memory.swap.max'), '0')
      writeFileSync(path.join(leaf, 'cpu.max'), `${quota} ${period}`)
      return { group, leaf }
    })
    return {
      version: 2,
      enterCommand: `echo $$ > ${shellWord(path.join(leaf, 'cgroup.procs'))} && `,
      read: () => {
        const events = read(path.join(leaf, 'memory.events')) ?? ''
        const stat = read(path.join(leaf, 'memory.stat')) ?? ''
        return {
          usageBytes: Number(read(path.join(leaf, 'memory.current')) ?? 0),
          peakBytes: Number(read(path.join(leaf, 'memory.peak')) ?? 0),
          oomKills: Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0),
          anonBytes: statField(stat, 'anon'),
          fileBytes: statField(stat, 'file'),
        }
      },
      remove: () => {
        stopProcessesIn(leaf)
        removeDir(leaf)
        removeDir(group)
      },
    }
  }
  const { memory, cpu } = makeGroups((makeGroup) => {
    const memoryMount = path.join(fs.root, 'memory')
    const cpuMount = path.join(fs.root, 'cpu')
    const memory = makeGroup(ownDir(memoryMount, fs, 'memory') ?? memoryMount, name)
    const cpu = makeGroup(ownDir(cpuMount, fs, 'cpu') ?? cpuMount, name)
    writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes))
    // No swap: the box's memory is all the process gets, as on Fly.io and Heroku.
    if (existsSync(path.join(memory, 'memory.memsw.limit_in_bytes'))) writeFileSync(path.join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes))
    writeFileSync(path.join(memory, 'memory.swappiness'), '0')
    writeFileSync(path.join(cpu, 'cpu.cfs_period_us'), String(period))
    writeFileSync(path.join(cpu, 'cpu.cfs_quota_us'), quota)
    return { memory, cpu }
  })
  return {
    version: 1,
    enterCommand: `echo $$ > ${shellWord(path.join(memory, 'cgroup.procs'))} && echo $$ > ${shellWord(path.join(cpu, 'cgroup.procs'))} && `,
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
      stopProcessesIn(memory)
      stopProcessesIn(cpu)
      removeDir(memory)
      removeDir(cpu)
    },
  }
}
