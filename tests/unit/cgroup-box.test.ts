import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeBox, MACHINE_CGROUPS, type CgroupFs } from '../../scripts/lib/cgroup-box.js'

const MiB = 2 ** 20
const NAME = 'poplift-box-test'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A folder standing in for the cgroup file system: `files` by path under it, and this process's groups as /proc/self/cgroup names them. */
function fixture(files: Record<string, string>, selfCgroups: string): CgroupFs {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cgroup-fixture-'))
  folders.push(dir)
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'fs', file)), { recursive: true })
    writeFileSync(path.join(dir, 'fs', file), text)
  }
  mkdirSync(path.join(dir, 'fs'), { recursive: true })
  writeFileSync(path.join(dir, 'self-cgroup'), selfCgroups)
  return { root: path.join(dir, 'fs'), selfFile: path.join(dir, 'self-cgroup') }
}

const textOf = (fs: CgroupFs, file: string) => readFileSync(path.join(fs.root, file), 'utf8')
const has = (fs: CgroupFs, file: string) => existsSync(path.join(fs.root, file))

/** What the kernel does when a group goes: its interface files go with it (in a fixture they are plain files). */
function dropInterfaceFiles(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry)
    if (statSync(file).isDirectory()) dropInterfaceFiles(file)
    else unlinkSync(file)
  }
}

const V2_ROOT = { 'cgroup.controllers': 'cpuset cpu io memory hugetlb pids rdma misc', 'cgroup.subtree_control': '' }

describe('makeBox on cgroup v2', () => {
  it('hands memory and cpu on from the root, makes the box and a leaf under it, and sets the limits in the leaf', () => {
    const fs = fixture(V2_ROOT, '0::/\n')
    const box = makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 1 }, fs)
    expect(box.version).toBe(2)
    expect(textOf(fs, 'cgroup.subtree_control')).toBe('+memory +cpu')
    expect(textOf(fs, `${NAME}/cgroup.subtree_control`)).toBe('+memory +cpu')
    expect(textOf(fs, `${NAME}/leaf/memory.max`)).toBe(String(256 * MiB))
    expect(textOf(fs, `${NAME}/leaf/cpu.max`)).toBe('100000 100000')
    // The limits are the leaf's alone: the box's group holds no process and sets nothing else.
    expect(readdirSync(path.join(fs.root, NAME)).sort()).toEqual(['cgroup.subtree_control', 'leaf'])
    expect(box.enterCommand).toBe(`echo $$ > '${path.join(fs.root, NAME, 'leaf', 'cgroup.procs')}' && `)
  })

  it('hands the CPU quota out over a shorter period when asked', () => {
    const fs = fixture(V2_ROOT, '0::/\n')
    makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 0.25, periodUs: 10_000 }, fs)
    expect(textOf(fs, `${NAME}/leaf/cpu.max`)).toBe('2500 10000')
  })

  it('adds only the controllers that are missing, and none when all are there', () => {
    const some = fixture({ ...V2_ROOT, 'cgroup.subtree_control': 'cpu io' }, '0::/\n')
    makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 1 }, some)
    expect(textOf(some, 'cgroup.subtree_control')).toBe('+memory')

    const all = fixture({ ...V2_ROOT, 'cgroup.subtree_control': 'cpuset cpu io memory pids' }, '0::/\n')
    makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 0.5 }, all)
    expect(textOf(all, 'cgroup.subtree_control')).toBe('cpuset cpu io memory pids')
    expect(textOf(all, `${NAME}/leaf/cpu.max`)).toBe('50000 100000')
  })

  it("puts the box beside this process's own group, whose processes keep it from handing controllers on, and leaves the root alone", () => {
    const fs = fixture(
      {
        ...V2_ROOT,
        'system.slice/cgroup.controllers': 'cpu memory pids',
        'system.slice/cgroup.subtree_control': 'pids',
        'system.slice/app.service/cgroup.procs': '4242',
        'system.slice/app.service/cgroup.subtree_control': '',
      },
      '0::/system.slice/app.service\n',
    )
    makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 1 }, fs)
    expect(textOf(fs, 'system.slice/cgroup.subtree_control')).toBe('+memory +cpu')
    expect(textOf(fs, `system.slice/${NAME}/leaf/memory.max`)).toBe(String(256 * MiB))
    expect(textOf(fs, 'cgroup.subtree_control')).toBe('')
    expect(textOf(fs, 'system.slice/app.service/cgroup.subtree_control')).toBe('')
    expect(has(fs, `system.slice/app.service/${NAME}`)).toBe(false)
  })

  it('removes the leaf, then the box, and keeps the controllers it handed on', () => {
    const fs = fixture(V2_ROOT, '0::/\n')
    const box = makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 1 }, fs)
    dropInterfaceFiles(path.join(fs.root, NAME))
    box.remove()
    expect(has(fs, NAME)).toBe(false)
    expect(textOf(fs, 'cgroup.subtree_control')).toBe('+memory +cpu')
  })

  it('refuses a group of the same name that is already there, and leaves it as it was', () => {
    const fs = fixture({ ...V2_ROOT, [`${NAME}/cgroup.procs`]: '777' }, '0::/\n')
    expect(() => makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 1 }, fs)).toThrow(/EEXIST/)
    expect(readdirSync(path.join(fs.root, NAME))).toEqual(['cgroup.procs'])
    expect(textOf(fs, `${NAME}/cgroup.procs`)).toBe('777')
  })

  it('falls back to cgroup v1 where the unified hierarchy lacks the memory controller (a hybrid machine)', () => {
    const fs = fixture(
      { 'unified/cgroup.controllers': 'hugetlb', 'unified/cgroup.subtree_control': '', 'memory/memory.limit_in_bytes': '9223372036854771712', 'cpu/cpu.cfs_quota_us': '-1' },
      '4:memory:/\n1:cpu:/\n0::/\n',
    )
    expect(makeBox(NAME, { memoryBytes: 256 * MiB, cpus: 1 }, fs).version).toBe(1)
    expect(textOf(fs, 'unified/cgroup.subtree_control')).toBe('')
  })
})

const V1_FILES = {
  'memory/memory.limit_in_bytes': '9223372036854771712',
  'memory/process_api/abc/memory.limit_in_bytes': String(4096 * MiB),
  'cpu/cpu.cfs_quota_us': '-1',
}
const V1_SELF = '9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n'

describe('makeBox on cgroup v1', () => {
  it("makes the box under this process's own groups, memory and cpu, with no swap", () => {
    const fs = fixture(V1_FILES, V1_SELF)
    const box = makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 1 }, fs)
    expect(box.version).toBe(1)
    const memory = `memory/process_api/abc/${NAME}`
    expect(textOf(fs, `${memory}/memory.limit_in_bytes`)).toBe(String(512 * MiB))
    expect(textOf(fs, `${memory}/memory.swappiness`)).toBe('0')
    expect(textOf(fs, `cpu/${NAME}/cpu.cfs_period_us`)).toBe('100000')
    expect(textOf(fs, `cpu/${NAME}/cpu.cfs_quota_us`)).toBe('100000')
    expect(textOf(fs, 'memory/process_api/abc/memory.limit_in_bytes')).toBe(String(4096 * MiB))
    expect(box.enterCommand).toBe(`echo $$ > '${path.join(fs.root, memory, 'cgroup.procs')}' && echo $$ > '${path.join(fs.root, 'cpu', NAME, 'cgroup.procs')}' && `)
  })

  it('hands the CPU quota out over a shorter period when asked', () => {
    const fs = fixture(V1_FILES, V1_SELF)
    makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 0.25, periodUs: 10_000 }, fs)
    expect(textOf(fs, `cpu/${NAME}/cpu.cfs_period_us`)).toBe('10000')
    expect(textOf(fs, `cpu/${NAME}/cpu.cfs_quota_us`)).toBe('2500')
  })

  it('removes the memory group again when the cpu group cannot be made, and leaves the one already there as it was', () => {
    const fs = fixture({ ...V1_FILES, [`cpu/${NAME}/cpu.cfs_quota_us`]: '20000' }, V1_SELF)
    expect(() => makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 1 }, fs)).toThrow(/EEXIST/)
    expect(has(fs, `memory/process_api/abc/${NAME}`)).toBe(false)
    expect(textOf(fs, `cpu/${NAME}/cpu.cfs_quota_us`)).toBe('20000')
  })

  it('removes both of its groups', () => {
    const fs = fixture(V1_FILES, V1_SELF)
    const box = makeBox(NAME, { memoryBytes: 512 * MiB, cpus: 1 }, fs)
    dropInterfaceFiles(path.join(fs.root, 'memory/process_api/abc', NAME))
    dropInterfaceFiles(path.join(fs.root, 'cpu', NAME))
    box.remove()
    expect(has(fs, `memory/process_api/abc/${NAME}`)).toBe(false)
    expect(has(fs, `cpu/${NAME}`)).toBe(false)
    expect(has(fs, 'memory/process_api/abc/memory.limit_in_bytes')).toBe(true)
  })
})

/** This machine's cgroups are v1 (memory and cpu hierarchies, no v2 memory controller) and this process may make groups. */
const machineOnV1 =
  process.getuid?.() === 0 &&
  existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') &&
  existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') &&
  !['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].some((mount) => existsSync(`${mount}/cgroup.controllers`) && readFileSync(`${mount}/cgroup.controllers`, 'utf8').split(/\s+/).includes('memory'))

/** The box's groups anywhere in the machine's memory and cpu hierarchies. */
function groupsNamed(name: string): string[] {
  const found: string[] = []
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      if (entry.name === name) found.push(path.join(dir, entry.name))
      else if (depth < 4) walk(path.join(dir, entry.name), depth + 1)
    }
  }
  for (const mount of ['/sys/fs/cgroup/memory', '/sys/fs/cgroup/cpu']) walk(mount, 0)
  return found
}

describe.runIf(machineOnV1)("makeBox on this machine's cgroup v1", () => {
  it('makes a box that holds a process to its limits, and removes it without a trace', async () => {
    const name = `poplift-box-test-${process.pid}`
    const box = makeBox(name, { memoryBytes: 64 * MiB, cpus: 0.5 }, MACHINE_CGROUPS)
    try {
      expect(box.version).toBe(1)
      const memory = groupsNamed(name).find((dir) => dir.startsWith('/sys/fs/cgroup/memory/'))
      const cpu = groupsNamed(name).find((dir) => dir.startsWith('/sys/fs/cgroup/cpu/'))
      expect(readFileSync(path.join(cpu!, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('50000')
      expect(readFileSync(path.join(memory!, 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(64 * MiB))
      const child = spawn('sh', ['-c', `${box.enterCommand}exec sleep 30`], { stdio: 'ignore' })
      const exited = once(child, 'exit')
      for (let i = 0; i < 50 && !readFileSync(`/proc/${child.pid}/cgroup`, 'utf8').includes(name); i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(readFileSync(`/proc/${child.pid}/cgroup`, 'utf8')).toContain(`/${name}`)
      expect(readFileSync(path.join(memory!, 'cgroup.procs'), 'utf8').trim()).toBe(String(child.pid))
      child.kill('SIGKILL')
      await exited
    } finally {
      box.remove()
    }
    expect(groupsNamed(name)).toEqual([])
  })
})
