import sharp from 'sharp'

/**
 * PNG from straight (not premultiplied) RGBA. libvips with light deflate and no adaptive
 * filtering is several times faster than Skia's encoder here, and the files come out smaller
 * for flat text images.
 */
export async function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength)
  const png = await sharp(pixels, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 3, adaptiveFiltering: false })
    .toBuffer()
  // A copy in memory of its own, so that it can be transferred out of the worker.
  return new Uint8Array(png)
}
