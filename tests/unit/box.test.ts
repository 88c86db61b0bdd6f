import { describe, expect, it } from 'vitest'
import { readBox, type ReadText } from '../../server/process/box.js'

const MiB = 2 ** 20
const GiB = 2 ** 30
/** What cgroup v1 writes when no memory limit is set. */
const V1_UNLIMITED = '9223372036854771712'

/** Files by path; any other file cannot be read. */
function fixture(files: Record<string, string>): ReadText {
  return (file) => files[file] ?? null
}

const machine = { memoryBytes: 16 * GiB, cpus: 8 }

/** The box a process on that machine finds, given these files. */
const boxOf = (files: Record<string, string>) => readBox({ read: fixture(files), machine })

const V1_MOUNTS = [
  '35 31 0:32 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,memory',
  '36 31 0:33 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:16 - cgroup cgroup rw,cpu,cpuacct',
].join('\n')
const V1_GROUPS = '4:memory:/process_api/abc\n2:cpu,cpuacct:/kubepods/pod1\n1:name=systemd:/init.scope'

const V2_MOUNT = '30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate'
const V2_GROUP = '0::/app.slice/web.service'

describe('readBox with cgroup v1', () => {
  it("reads the memory limit of cgroup v1 from the process's own group", () => {
    const box = boxOf({ '/proc/self/mountinfo': V1_MOUNTS, '/proc/self/cgroup': V1_GROUPS, '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': String(512 * MiB) })
    expect(box).toMatchObject({ memoryBytes: 512 * MiB, memoryFrom: 'cgroup v1', cpus: 8, cpusFrom: 'affinity' })
  })

  it("reads the memory limit of cgroup v1 from the process's own group, the lowest on the way up", () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': String(1 * GiB),
      '/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes': String(384 * MiB),
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': V1_UNLIMITED,
    })
    expect(box).toMatchObject({ memoryBytes: 384 * MiB, memoryFrom: 'cgroup v1' })
  })

  it('keeps the own group\'s limit when it is lower than its ancestors\'', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': String(256 * MiB),
      '/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes': String(2 * GiB),
    })
    expect(box.memoryBytes).toBe(256 * MiB)
  })

  it('counts the "unlimited" value of cgroup v1 as no limit: the machine\'s memory', () => {
    const box = readBox({
      read: fixture({
        '/proc/self/mountinfo': V1_MOUNTS,
        '/proc/self/cgroup': V1_GROUPS,
        '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': `${V1_UNLIMITED}\n`,
        '/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes': V1_UNLIMITED,
        '/sys/fs/cgroup/memory/memory.limit_in_bytes': V1_UNLIMITED,
      }),
      // A machine larger than the value itself, so only its meaning, not the machine's size, makes it no limit.
      machine: { memoryBytes: 2 ** 64, cpus: 8 },
    })
    expect(box).toMatchObject({ memoryBytes: 2 ** 64, memoryFrom: 'machine' })
  })

  it('reads the CPU quota of cgroup v1 as cfs_quota_us / cfs_period_us: 50000 / 100000 is half a CPU', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '50000\n',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us': '100000\n',
    })
    expect(box).toMatchObject({ cpus: 0.5, cpusFrom: 'cgroup v1 quota', memoryBytes: machine.memoryBytes, memoryFrom: 'machine' })
  })

  it('takes the lowest CPU quota of cgroup v1 on the way up, and a quota of -1 as none', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '-1',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us': '100000',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/cpu.cfs_quota_us': '200000',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/cpu.cfs_period_us': '100000',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000',
    })
    expect(box).toMatchObject({ cpus: 2, cpusFrom: 'cgroup v1 quota' })
  })

  it('gives the CPUs the process may run on when every CPU quota of cgroup v1 is -1', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '-1',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us': '100000',
    })
    expect(box).toMatchObject({ cpus: 8, cpusFrom: 'affinity' })
  })
})

describe('readBox with cgroup v2', () => {
  it('reads memory.max as a number of bytes, and cpu.max "150000 100000" as 1.5 CPUs', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': '536870912\n',
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': '150000 100000\n',
    })
    expect(box).toMatchObject({ memoryBytes: 512 * MiB, memoryFrom: 'cgroup v2', cpus: 1.5, cpusFrom: 'cgroup v2 quota' })
  })

  it('counts memory.max "max" and cpu.max "max 100000" as no limit', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': 'max\n',
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': 'max 100000\n',
    })
    expect(box).toEqual({ memoryBytes: machine.memoryBytes, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })

  it("takes the lowest memory.max and cpu.max on the way up from the process's own group", () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': 'max',
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': '400000 100000',
      '/sys/fs/cgroup/app.slice/memory.max': String(768 * MiB),
      '/sys/fs/cgroup/app.slice/cpu.max': 'max 100000',
      '/sys/fs/cgroup/memory.max': String(4 * GiB),
      '/sys/fs/cgroup/cpu.max': '250000 100000',
    })
    expect(box).toMatchObject({ memoryBytes: 768 * MiB, memoryFrom: 'cgroup v2', cpus: 2.5, cpusFrom: 'cgroup v2 quota' })
  })

  it('reads cgroup v2 mounted beside v1 (the hybrid layout) at its own mount point', () => {
    const box = boxOf({
      '/proc/self/mountinfo': '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/unified/app.slice/web.service/memory.max': String(300 * MiB),
    })
    expect(box).toMatchObject({ memoryBytes: 300 * MiB, memoryFrom: 'cgroup v2' })
  })
})

describe('readBox without cgroup limits', () => {
  it("gives the machine's memory and the CPUs the process may run on when there is no cgroup mount", () => {
    const box = boxOf({
      '/proc/self/mountinfo': '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n23 22 0:5 / /proc rw - proc proc rw',
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': String(256 * MiB),
    })
    expect(box).toEqual({ memoryBytes: 16 * GiB, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })

  it("gives the machine's figures when a limit is larger than the machine's memory or a quota above its CPUs", () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': String(32 * GiB),
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': '1600000 100000',
    })
    expect(box).toEqual({ memoryBytes: 16 * GiB, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })

  it('gives the machine\'s figures when the limit equals them', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': V2_GROUP,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': String(16 * GiB),
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': '800000 100000',
    })
    expect(box).toMatchObject({ memoryFrom: 'machine', cpusFrom: 'affinity' })
  })
})

describe("readBox in a container's own view", () => {
  it('reads the limit files at the mount point when the mount shows only the container\'s own group', () => {
    const box = boxOf({
      '/proc/self/mountinfo': '35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime - cgroup cgroup rw,memory',
      '/proc/self/cgroup': '4:memory:/docker/abc',
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': String(512 * MiB),
    })
    expect(box).toMatchObject({ memoryBytes: 512 * MiB, memoryFrom: 'cgroup v1' })
  })

  it("reads the limit files at the mount point when the process's group is not under the mount's root", () => {
    const box = boxOf({
      '/proc/self/mountinfo': [
        '35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,relatime - cgroup cgroup rw,memory',
        '36 31 0:33 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,relatime - cgroup cgroup rw,cpu,cpuacct',
      ].join('\n'),
      '/proc/self/cgroup': '4:memory:/kubepods/other\n2:cpu,cpuacct:/kubepods/other',
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': String(640 * MiB),
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '150000',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000',
    })
    expect(box).toMatchObject({ memoryBytes: 640 * MiB, memoryFrom: 'cgroup v1', cpus: 1.5, cpusFrom: 'cgroup v1 quota' })
  })

  it('reads the files under the mount point for a group below the root the mount shows', () => {
    const box = boxOf({
      '/proc/self/mountinfo': '35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,relatime - cgroup cgroup rw,memory',
      '/proc/self/cgroup': '4:memory:/docker/abc/worker',
      '/sys/fs/cgroup/memory/worker/memory.limit_in_bytes': String(200 * MiB),
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': String(512 * MiB),
    })
    expect(box.memoryBytes).toBe(200 * MiB)
  })

  it('reads cgroup v2 at the mount point for a container in its own cgroup namespace ("0::/")', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V2_MOUNT,
      '/proc/self/cgroup': '0::/',
      '/sys/fs/cgroup/memory.max': String(1 * GiB),
      '/sys/fs/cgroup/cpu.max': '100000 100000',
    })
    expect(box).toMatchObject({ memoryBytes: 1 * GiB, memoryFrom: 'cgroup v2', cpus: 1, cpusFrom: 'cgroup v2 quota' })
  })

  it('unescapes a mount point written with octal escapes', () => {
    const box = boxOf({
      '/proc/self/mountinfo': '30 23 0:26 / /mnt/my\\040cgroup rw - cgroup2 cgroup2 rw',
      '/proc/self/cgroup': '0::/web',
      '/mnt/my cgroup/web/memory.max': String(128 * MiB),
    })
    expect(box.memoryBytes).toBe(128 * MiB)
  })
})

describe('readBox on a Heroku-like dyno', () => {
  it('gives 512 MiB from cgroup v1 and the 8 CPUs the machine shows when no CPU quota is set', () => {
    const box = readBox({
      read: fixture({
        '/proc/self/mountinfo': V1_MOUNTS,
        '/proc/self/cgroup': V1_GROUPS,
        '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': String(512 * MiB),
        '/sys/fs/cgroup/memory/memory.limit_in_bytes': V1_UNLIMITED,
        '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '-1',
        '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us': '100000',
      }),
      machine: { memoryBytes: 64 * GiB, cpus: 8 },
    })
    expect(box).toEqual({ memoryBytes: 512 * MiB, memoryFrom: 'cgroup v1', cpus: 8, cpusFrom: 'affinity', machine: { memoryBytes: 64 * GiB, cpus: 8 } })
  })
})

describe('readBox on unreadable or garbage files', () => {
  it("never throws when nothing can be read, and gives the machine's figures", () => {
    expect(readBox({ read: () => null, machine })).toEqual({ memoryBytes: 16 * GiB, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })

  it('never throws on garbage in mountinfo, /proc/self/cgroup and the limit files, and counts it as no limit', () => {
    const box = boxOf({
      '/proc/self/mountinfo': `garbage\n - \n1 2 - cgroup2\n${V2_MOUNT}\n\u0000\u0001 - cgroup cgroup`,
      '/proc/self/cgroup': `nonsense\n::\n${V2_GROUP}\n`,
      '/sys/fs/cgroup/app.slice/web.service/memory.max': 'lots',
      '/sys/fs/cgroup/app.slice/web.service/cpu.max': 'many 0',
      '/sys/fs/cgroup/app.slice/memory.max': '-5',
      '/sys/fs/cgroup/app.slice/cpu.max': '100000 abc',
      '/sys/fs/cgroup/memory.max': '',
      '/sys/fs/cgroup/cpu.max': '0 100000',
    })
    expect(box).toEqual({ memoryBytes: 16 * GiB, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })

  it('counts garbage or zero in the cgroup v1 limit files as no limit', () => {
    const box = boxOf({
      '/proc/self/mountinfo': V1_MOUNTS,
      '/proc/self/cgroup': V1_GROUPS,
      '/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes': 'unlimited',
      '/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes': '0',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '50000',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us': '0',
      '/sys/fs/cgroup/cpu,cpuacct/kubepods/cpu.cfs_quota_us': '50000',
    })
    expect(box).toEqual({ memoryBytes: 16 * GiB, memoryFrom: 'machine', cpus: 8, cpusFrom: 'affinity', machine })
  })
})

describe('readBox stays inside each mount', () => {
  it('reads only the mount\'s own files for a process at the top of cgroup v2 ("0::/"), never the folder above', () => {
    const seen: string[] = []
    const files: Record<string, string> = { '/proc/self/mountinfo': V2_MOUNT, '/proc/self/cgroup': '0::/', '/sys/fs/cgroup/memory.max': String(256 * MiB) }
    const box = readBox({ read: (file) => (seen.push(file), files[file] ?? null), machine })
    expect(box.memoryBytes).toBe(256 * MiB)
    expect(seen.filter((file) => !file.startsWith('/proc/'))).toEqual(['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/cpu.max'])
  })

  it("takes a group whose name only begins like the mount's root (/docker/abcdef under /docker/abc) as outside it: the mount point alone", () => {
    const seen: string[] = []
    const files: Record<string, string> = {
      '/proc/self/mountinfo': '35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory',
      '/proc/self/cgroup': '4:memory:/docker/abcdef',
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': String(300 * MiB),
    }
    const box = readBox({ read: (file) => (seen.push(file), files[file] ?? null), machine })
    expect(box.memoryBytes).toBe(300 * MiB)
    expect(seen.filter((file) => !file.startsWith('/proc/'))).toEqual(['/sys/fs/cgroup/memory/memory.limit_in_bytes'])
  })

  it('reads both the memory limit and the CPU quota of a cgroup v1 hierarchy that carries both controllers', () => {
    const box = boxOf({
      '/proc/self/mountinfo': '35 31 0:32 / /sys/fs/cgroup/combined rw - cgroup cgroup rw,cpu,memory',
      '/proc/self/cgroup': '4:cpu,memory:/web',
      '/sys/fs/cgroup/combined/web/memory.limit_in_bytes': String(512 * MiB),
      '/sys/fs/cgroup/combined/web/cpu.cfs_quota_us': '50000',
      '/sys/fs/cgroup/combined/web/cpu.cfs_period_us': '100000',
    })
    expect(box).toMatchObject({ memoryBytes: 512 * MiB, memoryFrom: 'cgroup v1', cpus: 0.5, cpusFrom: 'cgroup v1 quota' })
  })
})
