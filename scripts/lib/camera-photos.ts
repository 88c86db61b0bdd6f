/**
 * Photos as phones and editors write them, for the browser tests and the upload measure: made
 * once per machine and kept in the temporary folder, in a folder named by a hash of this file and
 * of what was asked, so a changed generator never hands out files an older one made.
 *
 * Every photo shown upright has a red band along its top fifth, whatever way it is stored: a test
 * tells from the pixels alone whether a photo was turned the right way.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

/** EXIF orientations a phone writes: upright, upside down, turned right (a portrait), turned left. */
export type Orientation = 1 | 3 | 6 | 8

/** How far sharp turns (clockwise) the upright picture into the way it is stored, for each orientation. */
const STORED_TURN: Record<Orientation, number> = { 1: 0, 3: 180, 6: 270, 8: 90 }

/** The scene as shown: a gradient, a disc, and the red band along its top. `hole` cuts a transparent disc. */
function scene(width: number, height: number, seed: number, hole = false): Buffer {
  const hue = (seed * 37) % 360
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${hue},50%,25%)"/>` +
      `<stop offset="1" stop-color="hsl(${(hue + 90) % 360},60%,75%)"/></linearGradient>` +
      `<mask id="m"><rect width="100%" height="100%" fill="white"/>${hole ? `<circle cx="${width * 0.85}" cy="${height / 2}" r="${height / 8}" fill="black"/>` : ''}</mask></defs>` +
      `<g mask="url(#m)"><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.6}" cy="${height / 2}" r="${height / 5}" fill="hsl(${(hue + 180) % 360},70%,55%)"/>` +
      `<rect width="${width}" height="${height / 5}" fill="#e00000"/></g></svg>`,
  )
}

/** The scene small, turned the way it is stored: resized from there to the photo's own size. */
async function storedScene(storedWidth: number, storedHeight: number, orientation: Orientation, seed: number): Promise<Buffer> {
  const sideways = orientation === 6 || orientation === 8
  const w = 400
  const h = Math.round((w * storedHeight) / storedWidth)
  return sharp(sideways ? scene(h, w, seed) : scene(w, h, seed))
    .rotate(STORED_TURN[orientation])
    .png()
    .toBuffer()
}

// ---------------------------------------------------------------------------------------------
// EXIF as a camera writes it: camera, orientation, GPS, and a thumbnail (IFD1)

type TagValue = { type: 'ascii'; text: string } | { type: 'byte' | 'short' | 'long'; values: number[] } | { type: 'rational'; values: [number, number][] }
type Tags = [tag: number, value: TagValue][]

const TYPE_CODES = { byte: 1, ascii: 2, short: 3, long: 4, rational: 5 } as const

function tagBytes(value: TagValue): Buffer {
  if (value.type === 'ascii') return Buffer.from(`${value.text}\0`, 'latin1')
  if (value.type === 'rational') return Buffer.concat(value.values.map(([n, d]) => Buffer.from([n >>> 24, n >>> 16, n >>> 8, n, d >>> 24, d >>> 16, d >>> 8, d].map((b) => b & 0xff))))
  const size = value.type === 'byte' ? 1 : value.type === 'short' ? 2 : 4
  const out = Buffer.alloc(value.values.length * size)
  value.values.forEach((v, i) => out.writeUIntBE(v, i * size, size))
  return out
}

const valueCount = (value: TagValue) => (value.type === 'ascii' ? value.text.length + 1 : value.values.length)

/** One big-endian IFD placed at `offset` of the TIFF block: its entries, the next IFD's offset, then values longer than four bytes. */
function ifd(tags: Tags, offset: number, next: number): Buffer {
  const head = Buffer.alloc(2 + tags.length * 12 + 4)
  const data: Buffer[] = []
  let dataAt = offset + head.length
  head.writeUInt16BE(tags.length, 0)
  tags.forEach(([tag, value], i) => {
    const at = 2 + i * 12
    const bytes = tagBytes(value)
    head.writeUInt16BE(tag, at)
    head.writeUInt16BE(TYPE_CODES[value.type], at + 2)
    head.writeUInt32BE(valueCount(value), at + 4)
    if (bytes.length <= 4) bytes.copy(head, at + 8)
    else {
      head.writeUInt32BE(dataAt, at + 8)
      const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes
      data.push(padded)
      dataAt += padded.length
    }
  })
  head.writeUInt32BE(next, head.length - 4)
  return Buffer.concat([head, ...data])
}

const GPS: Tags = [
  [0x0000, { type: 'byte', values: [2, 2, 0, 0] }],
  [0x0001, { type: 'ascii', text: 'N' }],
  [0x0002, { type: 'rational', values: [[48, 1], [51, 1], [2996, 100]] }],
  [0x0003, { type: 'ascii', text: 'E' }],
  [0x0004, { type: 'rational', values: [[2, 1], [17, 1], [4010, 100]] }],
]

/**
 * The APP1 segment of a camera photo: `Exif\0\0`, a TIFF block with IFD0 (make, model,
 * orientation, a pointer to the GPS IFD), the GPS IFD, and IFD1 pointing at a JPEG thumbnail
 * stored after it, as cameras keep one for quick previews.
 */
function exifSegment(orientation: Orientation, thumbnail: Buffer): Buffer {
  const ifd0 = (gpsAt: number, ifd1At: number): Tags => [
    [0x010f, { type: 'ascii', text: 'Phone' }],
    [0x0110, { type: 'ascii', text: 'Camera 12' }],
    [0x0112, { type: 'short', values: [orientation] }],
    [0x8825, { type: 'long', values: [gpsAt] }],
  ]
  const first = ifd(ifd0(0, 0), 8, 0)
  const gpsAt = 8 + first.length
  const gps = ifd(GPS, gpsAt, 0)
  const ifd1At = gpsAt + gps.length
  const ifd1Length = ifd([[0, { type: 'short', values: [0] }], [0, { type: 'long', values: [0] }], [0, { type: 'long', values: [0] }]], 0, 0).length
  const thumbnailAt = ifd1At + ifd1Length
  const ifd1 = ifd(
    [
      // Compression 6: a JPEG, at the offset and of the length that follow.
      [0x0103, { type: 'short', values: [6] }],
      [0x0201, { type: 'long', values: [thumbnailAt] }],
      [0x0202, { type: 'long', values: [thumbnail.length] }],
    ],
    ifd1At,
    0,
  )
  const tiff = Buffer.concat([Buffer.from('MM\0\x2a\0\0\0\x08', 'latin1'), ifd(ifd0(gpsAt, ifd1At), 8, ifd1At), gps, ifd1, thumbnail])
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])
  if (body.length + 2 > 0xffff) throw new Error('EXIF segment over 64 KB: make the thumbnail smaller')
  const marker = Buffer.from([0xff, 0xe1, 0, 0])
  marker.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([marker, body])
}

/** A JPEG with `segment` put right after its start, as cameras write EXIF (a JFIF segment, which cameras do not write, is left out). */
function withSegment(jpeg: Buffer, segment: Buffer): Buffer {
  let rest = 2
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) rest = 4 + jpeg.readUInt16BE(4)
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(rest)])
}

// ---------------------------------------------------------------------------------------------
// The photos

async function grain(): Promise<Buffer> {
  return sharp({ create: { width: 509, height: 503, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 22 } } })
    .png()
    .toBuffer()
}

/**
 * A camera JPEG of `width`×`height` pixels as stored, shown turned by its EXIF `orientation`,
 * with camera and GPS tags and a thumbnail in its EXIF. Grain over a gradient and a disc, at a
 * phone's quality, so its size is a phone photo's.
 */
export async function cameraPhoto(width: number, height: number, seed: number, orientation: Orientation = 6): Promise<Buffer> {
  const stored = await storedScene(width, height, orientation, seed)
  const photo = await sharp(stored)
    .resize(width, height, { kernel: 'linear' })
    .composite([{ input: await grain(), tile: true, blend: 'soft-light' }])
    .jpeg({ quality: 92 })
    .toBuffer()
  const thumbnail = await sharp(stored).resize(160, 160, { fit: 'inside' }).jpeg({ quality: 60 }).toBuffer()
  return withSegment(photo, exifSegment(orientation, thumbnail))
}

/** A PNG with an alpha channel, shown upright: with a transparent disc cut out of it, or with every pixel opaque. */
export async function alphaPng(width: number, height: number, seed: number, transparent: boolean): Promise<Buffer> {
  return sharp(scene(width, height, seed, transparent)).ensureAlpha().png().toBuffer()
}

/** A JPEG in CMYK, as an editor exports one for print (with Adobe's marker, inks inverted). */
export async function cmykJpeg(width: number, height: number, seed: number): Promise<Buffer> {
  return sharp(scene(width, height, seed)).toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer()
}

/**
 * An HEIF file branded HEIC (`ftyp` major brand `heic`), as iPhones write. sharp's libvips can
 * only encode AV1 into HEIF, so its picture is AV1 under HEIC's brands: a file whose bytes say
 * HEIC and that a browser without an HEIC decoder (Chromium) cannot read, as with a real one.
 */
export async function heicPhoto(width: number, height: number, seed: number): Promise<Buffer> {
  const avif = await sharp(scene(width, height, seed)).heif({ compression: 'av1', quality: 50 }).toBuffer()
  if (avif.toString('latin1', 4, 8) !== 'ftyp') throw new Error('sharp wrote no ftyp box first')
  const boxEnd = avif.readUInt32BE(0)
  const heic = Buffer.from(avif)
  heic.write('heic', 8, 'latin1')
  // The compatible brands after the minor version: HEIC's, in place of AVIF's.
  const compatible = ['mif1', 'heic', 'miaf', 'MiHE']
  for (let at = 16, i = 0; at + 4 <= boxEnd; at += 4, i++) heic.write(compatible[i % compatible.length]!, at, 'latin1')
  return heic
}

// ---------------------------------------------------------------------------------------------
// Files on disk

/** This file's source, hashed into the folders' names. */
const SOURCE = fs.readFileSync(fileURLToPath(import.meta.url))

type PhotoSpec =
  | { kind: 'camera'; width: number; height: number; orientation: Orientation }
  | { kind: 'png'; width: number; height: number; transparent: boolean }
  | { kind: 'cmyk'; width: number; height: number }
  | { kind: 'heic'; width: number; height: number }

const EXTENSIONS = { camera: 'jpg', png: 'png', cmyk: 'jpg', heic: 'heic' } as const

function make(spec: PhotoSpec, seed: number): Promise<Buffer> {
  if (spec.kind === 'camera') return cameraPhoto(spec.width, spec.height, seed, spec.orientation)
  if (spec.kind === 'png') return alphaPng(spec.width, spec.height, seed, spec.transparent)
  if (spec.kind === 'cmyk') return cmykJpeg(spec.width, spec.height, seed)
  return heicPhoto(spec.width, spec.height, seed)
}

/**
 * The photos on disk (the browser reads files from there rather than through a test's channel),
 * named `IMG_{n}`, made once per machine under a folder named for `name`, this file's source and
 * the photos asked for.
 */
async function roll(name: string, specs: readonly PhotoSpec[], firstNumber: number): Promise<string[]> {
  const hash = createHash('sha256').update(SOURCE).update(JSON.stringify({ specs, firstNumber })).digest('hex').slice(0, 16)
  const dir = path.join(os.tmpdir(), `${name}-${hash}`)
  const names = specs.map((spec, i) => path.join(dir, `IMG_${firstNumber + i}.${EXTENSIONS[spec.kind]}`))
  if (names.every((file) => fs.existsSync(file))) return names
  fs.mkdirSync(dir, { recursive: true })
  await Promise.all(
    names.map(async (file, i) => {
      const partial = `${file}.${process.pid}`
      fs.writeFileSync(partial, await make(specs[i]!, firstNumber + i))
      fs.renameSync(partial, file)
    }),
  )
  return names
}

const camera = (width: number, height: number, orientation: Orientation = 6): PhotoSpec => ({ kind: 'camera', width, height, orientation })
const TWELVE_MEGAPIXELS = camera(4000, 3000)

/** A phone's camera roll: nine photos of 4000×3000 and one of 8000×6000 (48 megapixels, over 10 MB), all portraits stored sideways. */
export const cameraRoll = () => roll('slideshow-camera-roll', [...Array<PhotoSpec>(9).fill(TWELVE_MEGAPIXELS), camera(8000, 6000)], 4001)

/** Ten 12-megapixel photos, each under the 5 MB the page took before it prepared photos. */
export const twelveMegapixelRoll = () => roll('slideshow-camera-roll-12mp', Array<PhotoSpec>(10).fill(TWELVE_MEGAPIXELS), 5001)

/**
 * What a phone's roll holds after some editing, ten files: landscapes and portraits stored each
 * of the four ways (orientations 1, 3, 6 and 8), a square photo, a PNG with transparency, a PNG
 * with an alpha channel but every pixel opaque, and a CMYK JPEG from an editor.
 */
export const MIXED_ROLL: readonly PhotoSpec[] = [
  camera(4000, 3000, 1),
  camera(4000, 3000, 3),
  camera(4000, 3000, 6),
  camera(4000, 3000, 8),
  camera(3000, 4000, 1),
  camera(3000, 4000, 6),
  camera(3000, 3000, 1),
  { kind: 'png', width: 1800, height: 1200, transparent: true },
  { kind: 'png', width: 1200, height: 1800, transparent: false },
  { kind: 'cmyk', width: 3000, height: 2000 },
]
export const mixedRoll = () => roll('slideshow-mixed-roll', MIXED_ROLL, 6001)

/** One HEIC photo (see `heicPhoto`). */
export const heicFile = async () => (await roll('slideshow-heic', [{ kind: 'heic', width: 1200, height: 900 }], 7001))[0]!
