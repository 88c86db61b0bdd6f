/** Whether an upload is provably bare: what a camera or an editor writes, and what hides metadata in chunks a decoder reads past. */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { forwardReader, isBareImage } from '../../server/giffer/uploads/bare.js'

const readOf = (bytes: Uint8Array) => async (offset: number, length: number) => bytes.subarray(offset, offset + length)
const bare = (type: 'image/jpeg' | 'image/png' | 'image/webp', bytes: Uint8Array) => isBareImage(type, readOf(bytes), bytes.length)
const image = () => sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366aa', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })

/** A PNG chunk of `type` holding `data`, its checksum left zero (a walk reads names and lengths). */
function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length)
  chunk.writeUInt32BE(data.length, 0)
  chunk.write(type, 4)
  data.copy(chunk, 8)
  return chunk
}

describe('a bare photo', () => {
  it.each([
    ['a baseline JPEG', 'image/jpeg', () => image().jpeg().toBuffer()],
    ['a progressive JPEG', 'image/jpeg', () => image().jpeg({ progressive: true }).toBuffer()],
    ['a CMYK JPEG', 'image/jpeg', () => image().toColourspace('cmyk').jpeg().toBuffer()],
    ['a PNG', 'image/png', () => image().png().toBuffer()],
    ['a palette PNG with transparency', 'image/png', () => image().ensureAlpha(0.5).png({ palette: true }).toBuffer()],
    ['a lossy WebP with alpha', 'image/webp', () => image().ensureAlpha(0.5).webp().toBuffer()],
    ['a lossless WebP', 'image/webp', () => image().webp({ lossless: true }).toBuffer()],
  ] as const)('%s is bare', async (_name, type, make) => {
    expect(await bare(type, await make())).toBe(true)
  })

  it('streams through a forward reader a window at a time', async () => {
    const bytes = await image().png().toBuffer()
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000)
    }
    expect(await isBareImage('image/png', forwardReader(chunks()), bytes.length)).toBe(true)
  })
})

describe('metadata where a decoder does not look', () => {
  it('refuses EXIF, a text chunk, data in a chunk of a fixed size, and anything after the end of a PNG', async () => {
    const png = await image().png().toBuffer()
    const iend = png.length - 12
    const text = Buffer.from('GPS 51.5N 0.12W')
    expect(await bare('image/png', await image().png().withExif({ IFD0: { Make: 'X' } }).toBuffer())).toBe(false)
    expect(await bare('image/png', Buffer.concat([png.subarray(0, iend), pngChunk('tEXt', text), png.subarray(iend)]))).toBe(false)
    expect(await bare('image/png', Buffer.concat([png.subarray(0, iend), pngChunk('pHYs', Buffer.alloc(5000, 0x41)), png.subarray(iend)]))).toBe(false)
    expect(await bare('image/png', Buffer.concat([png.subarray(0, iend), pngChunk('IEND', text)]))).toBe(false)
    expect(await bare('image/png', Buffer.concat([png, text]))).toBe(false)
  })

  it('refuses EXIF, a large ICC profile, a JFIF segment longer than its own, and a second image appended to a JPEG', async () => {
    const jpeg = await image().jpeg().toBuffer()
    expect(await bare('image/jpeg', await image().jpeg().withExif({ IFD0: { Make: 'X' } }).toBuffer())).toBe(false)
    // A small sRGB profile, as a canvas writes, is kept; one of many KB could carry anything.
    expect(await bare('image/jpeg', await image().withIccProfile('srgb').jpeg().toBuffer())).toBe(true)
    const bigIcc = Buffer.concat([Buffer.from([0xff, 0xe2, 0x20, 0x02]), Buffer.from('ICC_PROFILE\0'), Buffer.from([1, 1]), Buffer.alloc(0x2002 - 16, 0x41)])
    expect(await bare('image/jpeg', Buffer.concat([jpeg.subarray(0, 2), bigIcc, jpeg.subarray(2)]))).toBe(false)
    const longJfif = Buffer.concat([Buffer.from([0xff, 0xe0, 0x10, 0x02]), Buffer.from('JFIF\0'), Buffer.alloc(0x1002 - 7, 0x41)])
    expect(await bare('image/jpeg', Buffer.concat([jpeg.subarray(0, 2), longJfif, jpeg.subarray(2)]))).toBe(false)
    expect(await bare('image/jpeg', Buffer.concat([jpeg, jpeg]))).toBe(false)
  })

  it('refuses EXIF and a second image in a WebP', async () => {
    const webp = await image().webp().toBuffer()
    expect(await bare('image/webp', await image().webp().withExif({ IFD0: { Make: 'X' } }).toBuffer())).toBe(false)
    // The image chunk twice, the RIFF size grown to hold it.
    const twice = Buffer.concat([webp, webp.subarray(12)])
    twice.writeUInt32LE(twice.length - 8, 4)
    expect(await bare('image/webp', twice)).toBe(false)
  })
})
