/** Photos as phones take them, for the browser tests and the upload measure: made once per machine and kept in the temporary folder. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'

/**
 * A camera-like JPEG stored sideways (as phones store a portrait photo) with EXIF orientation 6,
 * camera and GPS tags. As shown, upright, its top fifth is red: stored, that band is its left
 * side. A gradient, a disc and grain, at a phone's quality, so its size is a phone photo's.
 */
export async function cameraPhoto(width: number, height: number, seed: number): Promise<Buffer> {
  const hue = (seed * 37) % 360
  const w = 400
  const h = Math.round((w * height) / width)
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      `<defs><linearGradient id="g" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,70%)"/>` +
      `<stop offset="1" stop-color="hsl(${(hue + 90) % 360},50%,25%)"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${w * 0.6}" cy="${h / 2}" r="${h / 5}" fill="hsl(${(hue + 180) % 360},70%,55%)"/>` +
      `<rect width="${w / 5}" height="${h}" fill="#e00000"/></svg>`,
  )
  const grain = await sharp({ create: { width: 509, height: 503, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } })
    .png()
    .toBuffer()
  return sharp(scene)
    .resize(width, height, { kernel: 'linear' })
    .composite([{ input: grain, tile: true, blend: 'soft-light' }])
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Camera 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2996/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4010/100' },
    })
    .toBuffer()
}

/**
 * Photos of the given sizes on disk (the browser reads files from there rather than through a
 * test's channel), made once per machine under `folder` of the temporary folder.
 */
async function roll(folder: string, sizes: readonly (readonly [number, number])[], firstNumber: number): Promise<string[]> {
  const dir = path.join(os.tmpdir(), folder)
  const names = sizes.map((_, i) => path.join(dir, `IMG_${firstNumber + i}.jpg`))
  if (names.every((name) => fs.existsSync(name))) return names
  fs.mkdirSync(dir, { recursive: true })
  await Promise.all(
    names.map(async (name, i) => {
      const [width, height] = sizes[i]!
      const partial = `${name}.${process.pid}`
      fs.writeFileSync(partial, await cameraPhoto(width, height, firstNumber + i))
      fs.renameSync(partial, name)
    }),
  )
  return names
}

const TWELVE_MEGAPIXELS = [4000, 3000] as const

/** A phone's camera roll: nine photos of 4000×3000 and one of 8000×6000 (48 megapixels, over 10 MB). */
export const cameraRoll = () => roll('slideshow-camera-roll-v1', [...Array<typeof TWELVE_MEGAPIXELS>(9).fill(TWELVE_MEGAPIXELS), [8000, 6000]], 4001)

/** Ten 12-megapixel photos, each under the 5 MB the page took before it prepared photos. */
export const twelveMegapixelRoll = () => roll('slideshow-camera-roll-12mp-v1', Array<typeof TWELVE_MEGAPIXELS>(10).fill(TWELVE_MEGAPIXELS), 5001)
