/**
 * What keeps the local upload target from filling the disk or serving one visitor without end:
 * the 5 MB file size, 10 files per signature, the per-address limits (in one process, and shared
 * by several through Redis) and the ceiling of the upload folder.
 */
import { statfsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import sharp from 'sharp'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { GifferOptions } from '../../server/giffer/config.js'
import { uploadCeiling } from '../../server/giffer/uploads.js'
import { connectSharedCounters, type SharedCounters } from '../../server/process/shared-counters.js'
import { redisServerPath, startRedis, type TestRedis } from '../support/redis.js'
import { PUBLIC_ORIGIN, binary, makePhoto, startGiffer, type TestGiffer } from './setup.js'

/** The disk `uploadCeiling` measures: the real one, unless a test pretends another size. */
const pretend = vi.hoisted(() => ({ diskBytes: null as number | null }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const statfsSync = ((...args: Parameters<typeof fs.statfsSync>) => {
    const real = fs.statfsSync(...args)
    return pretend.diskBytes === null ? real : { ...real, bsize: 4096, blocks: Math.floor(pretend.diskBytes / 4096) }
  }) as typeof fs.statfsSync
  return { ...fs, default: { ...fs, statfsSync }, statfsSync }
})

const FIVE_MB = 5_242_880
const MB = 2 ** 20

interface Signed {
  url: string
  key: string
  fields: Record<string, string>
}

const giffers: TestGiffer[] = []

/**
 * A giffer of its own (its counts and its folder start empty), behind a proxy on loopback: the
 * visitor's address is the one `X-Forwarded-For` names, as behind the site's load balancer.
 */
async function giffer(overrides: Partial<GifferOptions> = {}): Promise<TestGiffer> {
  const g = await startGiffer(overrides)
  g.app.set('trust proxy', 'loopback')
  giffers.push(g)
  return g
}

afterEach(async () => {
  await Promise.all(giffers.splice(0).map((g) => g.close()))
})

const VISITOR = '198.51.100.7'

function signFrom(g: TestGiffer, address = VISITOR) {
  return request(g.app).post('/giffer/uploads/sign').set('X-Forwarded-For', address)
}

async function sign(g: TestGiffer, address = VISITOR): Promise<Signed> {
  return (await signFrom(g, address).expect(200)).body as Signed
}

function post(g: TestGiffer, signed: Signed, file: Buffer, { filename = 'photo.jpg', address = VISITOR } = {}) {
  let req = request(g.app).post(new URL(signed.url, PUBLIC_ORIGIN).pathname).set('X-Forwarded-For', address)
  for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, value)
  return req.field('Content-Type', 'image/jpeg').attach('file', file, { filename, contentType: 'image/jpeg' })
}

const keyOf = (signed: Signed, filename: string) => signed.key.replace('${filename}', filename)

/** Every file under a state folder's uploads, relative to them. */
async function filesIn(stateDir: string): Promise<string[]> {
  const dir = path.join(stateDir, 'uploads')
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** What a refused upload may leave: nothing under its key, nothing half-received in tmp/. */
async function expectNothingKept(g: TestGiffer, key: string, stateDir = g.stateDir) {
  const file = path.join(stateDir, ...key.split('/'))
  expect(await stat(file).then(() => true, () => false), key).toBe(false)
  expect(await readdir(path.join(stateDir, 'uploads', 'tmp')).catch(() => [])).toEqual([])
  await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(404)
}

describe('the size of one file', () => {
  it('takes a file of exactly 5 MB (5,242,880 bytes) and refuses one byte more with 413 "File is too big (max 5 MB)"', async () => {
    const g = await giffer()
    // A real JPEG, padded after its end marker up to the limit: still one that sharp reads.
    const photo = await makePhoto(1, 64, 48)
    const exact = Buffer.concat([photo, Buffer.alloc(FIVE_MB - photo.length, 0x5a)])
    expect(exact.length).toBe(5_242_880)
    expect(await sharp(exact).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 })

    const signed = await sign(g)
    const taken = await post(g, signed, exact, { filename: 'exact.jpg' })
    expect(taken.status).toBe(204)
    expect(taken.headers.location).toBe(`/giffer/${keyOf(signed, 'exact.jpg')}`)
    const served = await request(g.app).get(taken.headers.location!).buffer(true).parse(binary)
    expect(served.status).toBe(200)
    expect(served.headers['content-length']).toBe('5242880')
    expect(Buffer.compare(served.body as Buffer, exact)).toBe(0)

    const oneMore = Buffer.concat([exact, Buffer.from([0x5a])])
    const refused = await post(g, signed, oneMore, { filename: 'one-more.jpg' })
    expect(refused.status).toBe(413)
    expect(refused.body).toEqual({ error: { code: 'too_large', message: 'File is too big (max 5 MB)', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'one-more.jpg'))
  })
})

describe('files per signature', () => {
  it('takes 10 files under one signature, refuses the 11th with 403 folder_full naming key, and takes it under a new signature', async () => {
    const g = await giffer()
    const photo = await makePhoto(2, 32, 32)
    const signed = await sign(g)
    for (let n = 1; n <= 10; n++) await post(g, signed, photo, { filename: `photo-${n}.jpg` }).expect(204)

    const eleventh = await post(g, signed, photo, { filename: 'photo-11.jpg' })
    expect(eleventh.status).toBe(403)
    expect(eleventh.body.error).toMatchObject({ code: 'folder_full', field: 'key' })
    expect(eleventh.body.error.message).toContain('uploads/sign')
    await expectNothingKept(g, keyOf(signed, 'photo-11.jpg'))
    const folder = keyOf(signed, '').replace(/^uploads\//, '')
    expect((await filesIn(g.stateDir)).filter((file) => file.startsWith(folder))).toHaveLength(10)

    const renewed = await sign(g)
    await post(g, renewed, photo, { filename: 'photo-11.jpg' }).expect(204)
    await request(g.app).get('/giffer/uploads/resolve').query({ key: keyOf(renewed, 'photo-11.jpg') }).expect(200)
  })

  it('counts files still arriving: with 9 stored, three posted at once under one signature leave one in and refuse two', async () => {
    const g = await giffer()
    const photo = await makePhoto(3, 32, 32)
    const signed = await sign(g)
    for (let n = 1; n <= 9; n++) await post(g, signed, photo, { filename: `photo-${n}.jpg` }).expect(204)
    const together = await Promise.all(['a', 'b', 'c'].map((name) => post(g, signed, photo, { filename: `photo-${name}.jpg` })))
    expect(together.map((res) => res.status).sort()).toEqual([204, 403, 403])
    const folder = keyOf(signed, '').replace(/^uploads\//, '')
    expect((await filesIn(g.stateDir)).filter((file) => file.startsWith(folder))).toHaveLength(10)
  })
})

/** A refusal of the per-address limits: 429, Retry-After within the 10-minute window, the giffer's JSON error. */
function expectRateLimited(res: request.Response) {
  expect(res.status).toBe(429)
  expect(res.headers['retry-after']).toMatch(/^\d+$/)
  const seconds = Number(res.headers['retry-after'])
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(600)
  expect(res.body).toEqual({ error: { code: 'rate_limited', message: `Too many attempts. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.` } })
}

describe('per address', () => {
  it('lets one address upload uploadsPerAddress (3) photos in 10 minutes, then answers 429 with Retry-After, while another address still uploads', async () => {
    const g = await giffer({ uploadsPerAddress: 3 })
    const photo = await makePhoto(3, 32, 32)
    const signed = await sign(g, '203.0.113.10')
    const statuses: number[] = []
    for (let n = 1; n <= 3; n++) statuses.push((await post(g, signed, photo, { filename: `photo-${n}.jpg`, address: '203.0.113.10' })).status)
    expect(statuses).toEqual([204, 204, 204])

    const fourth = await post(g, signed, photo, { filename: 'photo-4.jpg', address: '203.0.113.10' })
    expectRateLimited(fourth)
    await expectNothingKept(g, keyOf(signed, 'photo-4.jpg'))

    const other = await sign(g, '203.0.113.20')
    await post(g, other, photo, { filename: 'photo-1.jpg', address: '203.0.113.20' }).expect(204)
    // The upload counts by who posts it, not by whose signature it carries.
    await post(g, signed, photo, { filename: 'photo-5.jpg', address: '203.0.113.20' }).expect(204)
  })

  it.each([
    [3, 1],
    [7, 3],
    [1, 1],
  ])('with uploadsPerAddress %i, lets one address have %i signatures in 10 minutes (a third, rounded up), then 429, while another address still signs', async (perAddress, signatures) => {
    const g = await giffer({ uploadsPerAddress: perAddress })
    for (let n = 0; n < signatures; n++) await signFrom(g, '203.0.113.30').expect(200)
    expectRateLimited(await signFrom(g, '203.0.113.30'))
    await signFrom(g, '203.0.113.40').expect(200)
  })

  it('counts IPv6 addresses per /56: two addresses of one /56 share the budget, the next /56 has its own', async () => {
    const g = await giffer({ uploadsPerAddress: 3 })
    await signFrom(g, '2001:db8:0:1::1').expect(200)
    expectRateLimited(await signFrom(g, '2001:db8:0:ff::2'))
    await signFrom(g, '2001:db8:0:100::1').expect(200)
  })
})

const hasRedis = redisServerPath() !== undefined
if (!hasRedis) console.warn('!!! redis-server is not installed: the shared upload-limit tests are SKIPPED (npm test installs it as root on Debian).')

describe('per address, shared through Redis', () => {
  let redis: TestRedis | undefined
  const counters: SharedCounters[] = []

  beforeAll(async () => {
    if (hasRedis) redis = await startRedis()
  })
  afterEach(async () => {
    await Promise.all(counters.splice(0).map((c) => c.close()))
    await redis?.flush()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  /** One giffer process counting in the shared Redis, once its connection is up. */
  async function gifferProcess(): Promise<TestGiffer> {
    const shared = connectSharedCounters(redis!.url, pino({ level: 'silent' }))
    counters.push(shared)
    for (let i = 0; i < 200 && shared.redis.status !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    expect(shared.redis.status).toBe('ready')
    return giffer({ uploadsPerAddress: 3, rateLimitStore: (name) => shared.rateLimitStore(name) })
  }

  it.skipIf(!hasRedis)('two processes count one address together: 3 uploads between them, then 429 from either; another address still uploads', async () => {
    const [a, b] = [await gifferProcess(), await gifferProcess()]
    const photo = await makePhoto(4, 32, 32)
    const address = '203.0.113.50'
    const signed = await sign(a, address)
    const statuses: number[] = []
    for (const [n, g] of [a, b, a].entries()) statuses.push((await post(g, signed, photo, { filename: `photo-${n}.jpg`, address })).status)
    expect(statuses).toEqual([204, 204, 204])
    expectRateLimited(await post(b, signed, photo, { filename: 'photo-3.jpg', address }))
    expectRateLimited(await post(a, signed, photo, { filename: 'photo-4.jpg', address }))

    const other = await sign(b, '203.0.113.60')
    await post(a, other, photo, { filename: 'photo-1.jpg', address: '203.0.113.60' }).expect(204)
  })

  it.skipIf(!hasRedis)('two processes count signatures together: one address’s second signature is 429 on the other process; another address still signs', async () => {
    const [a, b] = [await gifferProcess(), await gifferProcess()]
    await signFrom(a, '203.0.113.70').expect(200)
    expectRateLimited(await signFrom(b, '203.0.113.70'))
    await signFrom(b, '203.0.113.80').expect(200)
  })
})

describe('the ceiling of the upload folder', () => {
  it('takes an upload only while the folder has room for the largest file (5 MB) besides what it holds: one photo, then 507', async () => {
    const photo = await makePhoto(5, 64, 48)
    // Room for one 5 MB file and half a photo: the first upload fits, the second no longer could.
    const g = await giffer({ uploadCeiling: { maxBytes: FIVE_MB + Math.floor(photo.length / 2), minFreeBytes: 0 } })
    const signed = await sign(g)
    await post(g, signed, photo, { filename: 'first.jpg' }).expect(204)

    const refused = await post(g, signed, photo, { filename: 'second.jpg' })
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual({ error: { code: 'insufficient_storage', message: 'The upload folder is full. Please try again later.', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'second.jpg'))
    expect(await filesIn(g.stateDir)).toEqual([keyOf(signed, 'first.jpg').replace(/^uploads\//, '')])
  })

  it('holds room for uploads under way: with room for one 5 MB file, two posted at once get one 204 and one 507', async () => {
    const photo = await makePhoto(8, 64, 48)
    const g = await giffer({ uploadCeiling: { maxBytes: FIVE_MB + Math.floor(photo.length / 2), minFreeBytes: 0 } })
    const signed = await sign(g)
    const together = await Promise.all(['one.jpg', 'two.jpg'].map((filename) => post(g, signed, photo, { filename })))
    expect(together.map((res) => res.status).sort()).toEqual([204, 507])
    expect(await filesIn(g.stateDir)).toHaveLength(1)
  })

  it('counts what is already in the folder (another process’s uploads) before taking an upload', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'giffer-ceiling-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const held = path.join(dir, 'uploads', new Date().toISOString().slice(0, 10), 'a'.repeat(32), 'photo-1.jpg')
    await mkdir(path.dirname(held), { recursive: true })
    await writeFile(held, Buffer.alloc(2 * MB))
    // With the 2 MB already there, a 5 MB file would pass 6 MB.
    const g = await giffer({ stateDir: dir, uploadCeiling: { maxBytes: 6 * MB, minFreeBytes: 0 } })
    const signed = await sign(g)
    const refused = await post(g, signed, await makePhoto(6, 32, 32))
    expect(refused.status).toBe(507)
    expect(refused.body.error.code).toBe('insufficient_storage')
    await expectNothingKept(g, keyOf(signed, 'photo.jpg'), dir)
    expect(await filesIn(dir)).toEqual([path.relative(path.join(dir, 'uploads'), held).split(path.sep).join('/')])
  })

  it('refuses even the first upload with 507 when the disk would keep less free than minFreeBytes, and keeps nothing of it', async () => {
    const g = await giffer({ uploadCeiling: { maxBytes: 2048 * MB, minFreeBytes: Number.MAX_SAFE_INTEGER } })
    const signed = await sign(g)
    const refused = await post(g, signed, await makePhoto(7, 64, 48))
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual({ error: { code: 'insufficient_storage', message: 'The upload folder is full. Please try again later.', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'photo.jpg'))
    expect(await filesIn(g.stateDir)).toEqual([])
  })

  it('unset, lets the folder take at most 2048 MB and at most a quarter of its disk, and keep at most 1024 MB or a tenth of it free', () => {
    // The folder is made on the first upload: its disk is that of the nearest folder that exists.
    const dir = path.join(os.tmpdir(), `not-made-yet-${process.pid}`, 'uploads')
    const disk = statfsSync(os.tmpdir())
    const diskBytes = disk.blocks * disk.bsize
    const ceiling = uploadCeiling(dir)
    expect(ceiling.maxBytes).toBeLessThanOrEqual(2048 * MB)
    expect(ceiling.maxBytes).toBeLessThanOrEqual(diskBytes / 4)
    expect(ceiling.maxBytes).toBe(Math.min(2048 * MB, Math.floor(diskBytes / 4)))
    expect(ceiling.minFreeBytes).toBeLessThanOrEqual(1024 * MB)
    expect(ceiling.minFreeBytes).toBeLessThanOrEqual(diskBytes / 10)
    expect(ceiling.minFreeBytes).toBe(Math.min(1024 * MB, Math.floor(diskBytes / 10)))
  })

  it.each([
    ['a small disk (4 GB): a quarter of it, and a tenth of it free', 4 * 1024 * MB, 1024 * MB, Math.floor(4 * 1024 * MB * 0.1)],
    ['a large disk (100 GB): 2048 MB, and 1024 MB free', 100 * 1024 * MB, 2048 * MB, 1024 * MB],
  ])('unset, on %s', (_disk, diskBytes, maxBytes, minFreeBytes) => {
    pretend.diskBytes = diskBytes
    onTestFinished(() => {
      pretend.diskBytes = null
    })
    expect(uploadCeiling(path.join(os.tmpdir(), 'uploads'))).toEqual({ maxBytes, minFreeBytes })
  })

  it('keeps the values that are set, 0 included, and follows the disk only for the other', () => {
    const dir = os.tmpdir()
    expect(uploadCeiling(dir, { maxBytes: 123, minFreeBytes: 0 })).toEqual({ maxBytes: 123, minFreeBytes: 0 })
    expect(uploadCeiling(dir, { maxBytes: 10 * 2048 * MB, minFreeBytes: 5 * 1024 * MB })).toEqual({ maxBytes: 10 * 2048 * MB, minFreeBytes: 5 * 1024 * MB })
    expect(uploadCeiling(dir, { maxBytes: 123 })).toEqual({ maxBytes: 123, minFreeBytes: uploadCeiling(dir).minFreeBytes })
    expect(uploadCeiling(dir, { minFreeBytes: 0 })).toEqual({ maxBytes: uploadCeiling(dir).maxBytes, minFreeBytes: 0 })
  })
})
