/**
 * Photos and slideshow jobs for `npm run bench:giffer`, shared by the bench and the child
 * processes its before-and-after section starts (scripts/lib/slideshow-bench-runner.ts).
 */
import sharp from 'sharp'
import type { SlideshowJob } from '../../server/giffer/jobs.js'
import { PHOTO_JPEG_QUALITY, PHOTO_LONG_SIDE } from '../../shared/generators/slideshow/slideshow.js'

/** The slideshow drawn by the bench: 10 photos in a row of one, 900 px wide, white, rounded corners. */
export const BENCH_ASPECTS = { '1:1': 1, '4:5': 5 / 4 } as const
export type BenchAspect = keyof typeof BENCH_ASPECTS

/** The job's fields other than its photos (the same in every build the bench compares). */
export function benchSlideshowStyle(aspect: BenchAspect, run: number): Omit<SlideshowJob, 'photos' | 'photoSource'> {
  return {
    kind: 'slideshow',
    mode: 'row',
    delayMs: 1500 + run * 10,
    radius: 16,
    width: 900,
    background: [255, 255, 255],
    borderWidth: 0,
    borderColor: [0, 0, 0],
    spacing: 0,
    count: 1,
    tweak: 1.3,
    overflow: 0,
    height: BENCH_ASPECTS[aspect],
    overlayColor: [0, 0, 0],
    overlayOpacity: 0.5,
  }
}

export interface BenchPhotoSize {
  width: number
  height: number
  quality: number
  /** Blur of the sensor grain, in pixels: finer grain makes a larger file. */
  grainBlur: number
}

/** The bench's usual photo: 1600×1200, about 170 KB. */
export const MEDIUM_PHOTO: BenchPhotoSize = { width: 1600, height: 1200, quality: 85, grainBlur: 1.2 }
/** A camera's or phone's original: 12 megapixels, about 3.5 MB (under the service's 5 MB), baseline, with EXIF. */
export const CAMERA_PHOTO: BenchPhotoSize = { width: 4000, height: 3000, quality: 95, grainBlur: 0.8 }

/** A photo-like JPEG: gradient, shapes and grain. */
export async function benchPhoto(seed: number, { width, height, quality, grainBlur }: BenchPhotoSize = MEDIUM_PHOTO): Promise<Uint8Array> {
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .blur(grainBlur)
    .png({ compressionLevel: 1 })
    .toBuffer()
  const hue = (seed * 37) % 360
  const scale = width / 1600
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,70%)"/>` +
      `<stop offset="1" stop-color="hsl(${(hue + 90) % 360},50%,25%)"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/>` +
      `<circle cx="${(400 + seed * 90) * scale}" cy="${500 * scale}" r="${260 * scale}" fill="hsl(${(hue + 180) % 360},70%,55%)"/>` +
      `<rect x="${900 * scale}" y="${650 * scale}" width="${500 * scale}" height="${420 * scale}" rx="${40 * scale}" fill="hsl(${(hue + 40) % 360},40%,45%)"/></svg>`,
  )
  const jpeg = await sharp(scene)
    .composite([{ input: grain, blend: 'soft-light' }])
    .withExif({ IFD0: { Make: 'Bench', Model: 'Camera' } })
    .jpeg({ quality })
    .toBuffer()
  return new Uint8Array(jpeg)
}

/**
 * A photo as the slideshow page sends it: the browser draws it with its EXIF orientation applied,
 * at a long side of PHOTO_LONG_SIDE, and encodes a JPEG at PHOTO_JPEG_QUALITY with no metadata.
 * sharp does the same here.
 */
export async function asPageSendsIt(original: Uint8Array): Promise<Uint8Array> {
  const jpeg = await sharp(original)
    .rotate()
    .resize(PHOTO_LONG_SIDE, PHOTO_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: Math.round(PHOTO_JPEG_QUALITY * 100) })
    .toBuffer()
  return new Uint8Array(jpeg)
}
