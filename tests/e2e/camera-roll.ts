/** A phone's camera roll for the browser tests: ten photos as phones take them, made once per machine. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'

/**
 * A camera-like JPEG stored sideways (as phones store a portrait photo) with EXIF orientation 6,
 * camera and GPS tags. As shown, upright, its top fifth is red: stored, that band is its left
 * side. A gradient, a disc and grain, at a phone's quality, so its size is a phone photo's.
 */
async function cameraPhoto(width: number, height: number, seed: number): Promise<Buffer> {
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
 * The ten photos on disk (the browser reads files from there rather than through the test's
 * channel), made once per machine: nine of 4000×3000 and one of 8000×6000.
 */
export async function cameraRoll(): Promise<string[]> {
  const dir = path.join(os.tmpdir(), 'slideshow-camera-roll-v1')
  const names = Array.from({ length: 10 }, (_, i) => path.join(dir, `IMG_${4001 + i}.jpg`))
  if (names.every((name) => fs.existsSync(name))) return names
  fs.mkdirSync(dir, { recursive: true })
  await Promise.all(
    names.map(async (name, i) => {
      const bytes = i === 9 ? await cameraPhoto(8000, 6000, i) : await cameraPhoto(4000, 3000, i)
      const partial = `${name}.${process.pid}`
      fs.writeFileSync(partial, bytes)
      fs.renameSync(partial, name)
    }),
  )
  return names
}

