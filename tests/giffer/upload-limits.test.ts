/**
 * What keeps the local upload target from filling the disk or serving one visitor without end:
 * the 5 MB file size, 10 files per signature (one per number), the per-address limits (in one
 * process, and shared by several through Redis) and the ceiling of the upload folder.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import sharp from 'sharp'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { GifferOptions } from '../../server/giffer/config.js'
import { uploadCeiling } from '../../server/giffer/uploads/local-store.js'
import { connectSharedCounters, type SharedCounters } from '../../server/process/shared-counters.js'
import { redisServerPath, startRedis, type TestRedis } from '../support/redis.js'
import { PUBLIC_ORIGIN, binary, makePhoto, startGiffer, testSizing, type TestGiffer } from './setup.js'

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

/**
 * The last step of an upload, the move of the received file to its name (a link; a rename would
 * do as well): a test may hold uploads there, to make them meet at the one step where they can
 * collide rather than hope that they happen to.
 */
const finalMove = vi.hoisted(() => ({ hold: null as ((to: string) => Promise<void>) | null }))
/** Every file of the upload folder read whole into memory, in order. */
const readWhole = vi.hoisted(() => [] as string[])
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  const readFile = ((file: Parameters<typeof fs.readFile>[0], ...rest: unknown[]) => {
    if (/[\\/]uploads[\\/]/.test(String(file))) readWhole.push(String(file))
    return (fs.readFile as (...args: unknown[]) => Promise<unknown>)(file, ...rest)
  }) as typeof fs.readFile
  const held =
    <Move extends (from: string, to: string) => Promise<void>>(move: Move) =>
    async (from: string, to: string) => {
      if (finalMove.hold && /[\\/]uploads[\\/]\d{4}-\d{2}-\d{2}[\\/]/.test(String(to))) await finalMove.hold(String(to))
      return move(from, to)
    }
  const link = held(fs.link as (from: string, to: string) => Promise<void>)
  const rename = held(fs.rename as (from: string, to: string) => Promise<void>)
  return { ...fs, default: { ...fs, link, rename, readFile }, link, rename, readFile }
})

/**
 * Holds every upload at its final move until `count` have reached it, then lets them all go on
 * at once. After 5 s it lets go whatever has arrived, so code that refuses some earlier fails the
 * test's expectations rather than its time.
 */
function meetAtFinalMove(count: number): void {
  const arrived: (() => void)[] = []
  const goAll = () => arrived.splice(0).forEach((go) => go())
  const late = setTimeout(goAll, 5_000)
  finalMove.hold = () =>
    new Promise<void>((resolve) => {
      arrived.push(resolve)
      if (arrived.length === count) goAll()
    })
  onTestFinished(() => {
    clearTimeout(late)
    finalMove.hold = null
  })
}

/** Holds the next upload at its final move: `reached` once it is there, until `release`. */
function holdAtFinalMove(): { reached: Promise<void>; release(): void } {
  let arrive!: () => void
  let release!: () => void
  const reached = new Promise<void>((resolve) => (arrive = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  finalMove.hold = () => {
    finalMove.hold = null
    arrive()
    return released
  }
  onTestFinished(() => {
    finalMove.hold = null
    release()
  })
  return { reached, release }
}

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

function post(g: TestGiffer, signed: Signed, file: Buffer, { filename = 'photo-1.jpg', address = VISITOR, type = 'image/jpeg' } = {}) {
  let req = request(g.app).post(new URL(signed.url, PUBLIC_ORIGIN).pathname).set('X-Forwarded-For', address)
  for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, value)
  return req.field('Content-Type', type).attach('file', file, { filename, contentType: type })
}

const keyOf = (signed: Signed, filename: string) => signed.key.replace('${filename}', filename)

/** Where the local folder keeps the upload under `key`, relative to it: its signed folder, under its number alone. */
function storedAs(key: string): string {
  const [, day, folder, name] = key.split('/')
  return `${day}/${folder}/${/^photo-(\d+)\./.exec(name!)![1]}`
}

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
  const file = path.join(stateDir, 'uploads', ...storedAs(key).split('/'))
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
    const taken = await post(g, signed, exact, { filename: 'photo-1.jpg' })
    expect(taken.status).toBe(204)
    expect(taken.headers.location).toBe(`/giffer/${keyOf(signed, 'photo-1.jpg')}`)
    // What follows its end marker is no photo's: the file is kept as made again, without it.
    const served = await request(g.app).get(taken.headers.location!).buffer(true).parse(binary)
    expect(served.status).toBe(200)
    expect(Number(served.headers['content-length'])).toBeLessThan(photo.length + 1_000)
    expect(await sharp(served.body as Buffer).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 })

    const oneMore = Buffer.concat([exact, Buffer.from([0x5a])])
    const refused = await post(g, signed, oneMore, { filename: 'photo-2.jpg' })
    expect(refused.status).toBe(413)
    expect(refused.body).toEqual({ error: { code: 'too_large', message: 'File is too big (max 5 MB)', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'photo-2.jpg'))
  })
})

describe('photos waiting to be reduced', () => {
  it('are read into memory only when their reduction has its thread and memory, once each: waiting, they cost nothing outside the budget', async () => {
    const sized = testSizing()
    const g = await giffer({ ...sized })
    // Larger than the largest card: each is reduced in a render thread before it is kept.
    const photo = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#3366aa' } }).jpeg().toBuffer()
    const signed = await sign(g)
    // The whole budget held: the reductions wait in the render pool's line.
    let release: (() => void) | null = await sized.budget.reserve(sized.budget.totalBytes - sized.budget.inUse)
    onTestFinished(() => release?.())
    readWhole.length = 0
    const posts = [1, 2, 3].map((n) => post(g, signed, photo, { filename: `photo-${n}.jpg` }).then((res) => res))
    await vi.waitFor(() => expect(g.giffer.stats?.queued).toBe(3), { timeout: 5_000 })
    expect(readWhole).toEqual([])
    release()
    release = null
    expect((await Promise.all(posts)).map((res) => res.status)).toEqual([204, 204, 204])
    // One read of each received file, by its reduction: no other copy of it was held.
    expect(readWhole).toHaveLength(3)
    expect(readWhole.every((file) => file.includes(`${path.sep}tmp${path.sep}`))).toBe(true)
    expect(new Set(readWhole).size).toBe(3)
  })
})

describe('files per signature', () => {
  it('takes photo-1 to photo-10 under one signature, refuses photo-11 with 400 naming the file, and takes an 11th photo as photo-1 of a new signature', async () => {
    const g = await giffer()
    const photo = await makePhoto(2, 32, 32)
    const signed = await sign(g)
    for (let n = 1; n <= 10; n++) await post(g, signed, photo, { filename: `photo-${n}.jpg` }).expect(204)

    const eleventh = await post(g, signed, photo, { filename: 'photo-11.jpg' })
    expect(eleventh.status).toBe(400)
    expect(eleventh.body.error).toMatchObject({ code: 'invalid_parameter', field: 'file' })
    expect(eleventh.body.error.message).toContain('photo-1 to photo-10')
    await request(g.app).get('/giffer/uploads/resolve').query({ key: keyOf(signed, 'photo-11.jpg') }).expect(400)
    const folder = keyOf(signed, '').replace(/^uploads\//, '')
    expect((await filesIn(g.stateDir)).filter((file) => file.startsWith(folder))).toHaveLength(10)

    const renewed = await sign(g)
    await post(g, renewed, photo, { filename: 'photo-1.jpg' }).expect(204)
    await request(g.app).get('/giffer/uploads/resolve').query({ key: keyOf(renewed, 'photo-1.jpg') }).expect(200)
  })

  it('of two uploads of one name that meet at the last step, keeps the one that got there first, whole, and answers the other 409', async () => {
    const g = await giffer()
    const [one, other] = [await makePhoto(3, 64, 48), await makePhoto(4, 64, 48)]
    const signed = await sign(g)
    meetAtFinalMove(2)
    const together = await Promise.all([one, other].map((photo) => post(g, signed, photo, { filename: 'photo-3.jpg' })))
    expect(together.map((res) => res.status).sort()).toEqual([204, 409])
    const refused = together.find((res) => res.status === 409)!
    expect(refused.body.error).toEqual({ code: 'already_uploaded', message: 'A file numbered 3 was already uploaded with this signature.', field: 'file' })
    const kept = together[0]!.status === 204 ? one : other
    const served = await request(g.app).get(`/giffer/${keyOf(signed, 'photo-3.jpg')}`).buffer(true).parse(binary).expect(200)
    expect(Buffer.compare(served.body as Buffer, kept)).toBe(0)
    expect(await filesIn(g.stateDir)).toEqual([storedAs(keyOf(signed, 'photo-3.jpg'))])
    expect(await readdir(path.join(g.stateDir, 'uploads', 'tmp'))).toEqual([])
  })

  it('with 9 stored, takes one of three uploads meeting at the last step for the 10th number (photo-10.jpg, .png and .webp) and answers the others 409: never 11 files', async () => {
    const g = await giffer()
    const signed = await sign(g)
    for (let n = 1; n <= 9; n++) await post(g, signed, await makePhoto(3, 32, 32), { filename: `photo-${n}.jpg` }).expect(204)
    meetAtFinalMove(3)
    const formats = [['jpeg', 'jpg'], ['png', 'png'], ['webp', 'webp']] as const
    const together = await Promise.all(
      formats.map(async ([format, extension]) => post(g, signed, await makePhoto(5, 32, 32, format), { filename: `photo-10.${extension}`, type: `image/${format}` })),
    )
    expect(together.map((res) => res.status).sort()).toEqual([204, 409, 409])
    const folder = keyOf(signed, '').replace(/^uploads\//, '')
    expect((await filesIn(g.stateDir)).filter((file) => file.startsWith(folder))).toHaveLength(10)
    const resolved = await Promise.all(formats.map(([, extension]) => request(g.app).get('/giffer/uploads/resolve').query({ key: keyOf(signed, `photo-10.${extension}`) })))
    expect(resolved.map((res) => res.status).sort()).toEqual([200, 404, 404])
  })

  it('of two processes sharing the folder, each taking an upload of one name at the same moment, answers one 204 and the other 409', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'giffer-shared-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const [a, b] = [await giffer({ stateDir: dir }), await giffer({ stateDir: dir })]
    const signed = await sign(a)
    meetAtFinalMove(2)
    const together = await Promise.all([post(a, signed, await makePhoto(6, 32, 32)), post(b, signed, await makePhoto(7, 32, 32))])
    expect(together.map((res) => res.status).sort()).toEqual([204, 409])
    expect(await filesIn(dir)).toEqual([storedAs(keyOf(signed, 'photo-1.jpg'))])
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
    for (const [n, g] of [a, b, a].entries()) statuses.push((await post(g, signed, photo, { filename: `photo-${n + 1}.jpg`, address })).status)
    expect(statuses).toEqual([204, 204, 204])
    expectRateLimited(await post(b, signed, photo, { filename: 'photo-4.jpg', address }))
    expectRateLimited(await post(a, signed, photo, { filename: 'photo-5.jpg', address }))

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
    await post(g, signed, photo, { filename: 'photo-1.jpg' }).expect(204)

    const refused = await post(g, signed, photo, { filename: 'photo-2.jpg' })
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual({ error: { code: 'insufficient_storage', message: 'The upload folder is full. Please try again later.', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'photo-2.jpg'))
    expect(await filesIn(g.stateDir)).toEqual([storedAs(keyOf(signed, 'photo-1.jpg'))])
  })

  it('holds room for uploads under way: with room for one 5 MB file, one arriving while another is still being stored gets 507, and the other 204', async () => {
    const photo = await makePhoto(8, 64, 48)
    const g = await giffer({ uploadCeiling: { maxBytes: FIVE_MB + Math.floor(photo.length / 2), minFreeBytes: 0 } })
    const signed = await sign(g)
    const first = holdAtFinalMove()
    const storing = post(g, signed, photo, { filename: 'photo-1.jpg' }).then((res) => res)
    await first.reached
    const second = await post(g, signed, photo, { filename: 'photo-2.jpg' })
    expect(second.status).toBe(507)
    first.release()
    expect((await storing).status).toBe(204)
    expect(await filesIn(g.stateDir)).toEqual([storedAs(keyOf(signed, 'photo-1.jpg'))])
  })

  it('counts what is already in the folder (another process’s uploads) before taking an upload', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'giffer-ceiling-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const held = path.join(dir, 'uploads', new Date().toISOString().slice(0, 10), 'a'.repeat(32), '1')
    await mkdir(path.dirname(held), { recursive: true })
    await writeFile(held, Buffer.alloc(2 * MB))
    // With the 2 MB already there, a 5 MB file would pass 6 MB.
    const g = await giffer({ stateDir: dir, uploadCeiling: { maxBytes: 6 * MB, minFreeBytes: 0 } })
    const signed = await sign(g)
    const refused = await post(g, signed, await makePhoto(6, 32, 32))
    expect(refused.status).toBe(507)
    expect(refused.body.error.code).toBe('insufficient_storage')
    await expectNothingKept(g, keyOf(signed, 'photo-1.jpg'), dir)
    expect(await filesIn(dir)).toEqual([path.relative(path.join(dir, 'uploads'), held).split(path.sep).join('/')])
  })

  it('refuses even the first upload with 507 when the disk would keep less free than minFreeBytes, and keeps nothing of it', async () => {
    const g = await giffer({ uploadCeiling: { maxBytes: 2048 * MB, minFreeBytes: Number.MAX_SAFE_INTEGER } })
    const signed = await sign(g)
    const refused = await post(g, signed, await makePhoto(7, 64, 48))
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual({ error: { code: 'insufficient_storage', message: 'The upload folder is full. Please try again later.', field: 'file' } })
    await expectNothingKept(g, keyOf(signed, 'photo-1.jpg'))
    expect(await filesIn(g.stateDir)).toEqual([])
  })

  it.each([
    [24, 507],
    [40, 204],
  ])('unset, lets the folder fill a quarter of its disk: with 2 MB held, an upload (room for 5 MB) on a %i MB disk gets %i', async (diskMb, status) => {
    pretend.diskBytes = diskMb * MB
    onTestFinished(() => {
      pretend.diskBytes = null
    })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'giffer-quarter-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const held = path.join(dir, 'uploads', new Date().toISOString().slice(0, 10), 'a'.repeat(32), '1')
    await mkdir(path.dirname(held), { recursive: true })
    await writeFile(held, Buffer.alloc(2 * MB))
    const g = await giffer({ stateDir: dir })
    expect((await post(g, await sign(g), await makePhoto(6, 32, 32))).status).toBe(status)
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
