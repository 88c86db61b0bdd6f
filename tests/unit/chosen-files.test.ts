/**
 * What the uploader makes of a chosen file before preparing it: what it is by its bytes (whatever
 * its name or label), HEIC among them; the messages for those it refuses; what each card and
 * screen readers say of a photo on its way; and the test photos, written as cameras write them.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { alphaPng, cameraPhoto, cmykJpeg, heicPhoto } from '../../scripts/lib/camera-photos.js'
import { readPhotoFacts } from '../../shared/generators/slideshow/photo-facts.js'
import { phaseAnnouncement, phaseLabel, preparingProgress } from '../../shared/generators/slideshow/photo-state.js'
import { ACCEPT_ATTRIBUTE, fileProblem, heicMessage, isHeif, MESSAGES, sniffChosenType, triageFiles, TYPE_SNIFF_BYTES, UPLOAD_MAX_BYTES } from '../../shared/generators/slideshow/slideshow.js'

const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)))
/** An `ftyp` box: its size, `ftyp`, the major brand, a minor version and the compatible brands. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4
  return latin1(`\0\0\0${String.fromCharCode(size)}ftyp${major}\0\0\0\0${compatible.join('')}`)
}
const chosen = (name: string, bytes: Uint8Array) => ({ name, size: bytes.length, head: bytes.subarray(0, TYPE_SNIFF_BYTES) })

describe('what a chosen file is, by its bytes', () => {
  it('knows HEIC and HEIF by their ftyp brands, major or compatible, and not AVIF, which shares the container', () => {
    for (const brand of ['heic', 'heix', 'hevc', 'mif1', 'msf1']) expect(isHeif(ftyp(brand)), brand).toBe(true)
    expect(isHeif(ftyp('MiHB', 'MiHE', 'heic'))).toBe(true)
    expect(sniffChosenType(ftyp('heic', 'mif1', 'heic'))).toBe('image/heif')
    expect(isHeif(ftyp('avif', 'avif', 'mif1', 'miaf'))).toBe(false)
    expect(isHeif(ftyp('mif1', 'avif'))).toBe(false)
    expect(isHeif(ftyp('isom', 'mp41'))).toBe(false)
    expect(isHeif(latin1('\0\0\0\x18moovheic'))).toBe(false)
    expect(isHeif(new Uint8Array(8))).toBe(false)
  })

  it('takes a JPEG whatever its label or name (image/jpg, image/pjpeg, none, .dat), and refuses bytes that are no image, naming the file', async () => {
    const jpeg = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).jpeg().toBuffer())
    for (const name of ['a.jpg', 'b.jpeg', 'c.dat', 'noextension', 'd.png']) expect(fileProblem(chosen(name, jpeg)), name).toBeNull()
    expect(fileProblem(chosen('scan.heic', ftyp('heic', 'mif1', 'heic')))).toBeNull()
    expect(fileProblem(chosen('notes.png', latin1('Shopping list')))).toBe('Unsupported file type. notes.png')
    expect(fileProblem(chosen('anim.gif', latin1('GIF89a\x01\0\x01\0')))).toBe('Unsupported file type. anim.gif')
    expect(fileProblem(chosen('empty.jpg', new Uint8Array(0)))).toBe('Can’t upload. Try again or choose another image.')
  })

  it('sorts a choice into the photos it takes and a message for each of the rest', async () => {
    const jpeg = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).jpeg().toBuffer())
    const { accepted, messages } = triageFiles(0, [chosen('a.jpg', jpeg), chosen('b.txt', latin1('hello')), chosen('c.heic', ftyp('heic'))])
    expect(accepted.map((file) => file.name)).toEqual(['a.jpg', 'c.heic'])
    expect(messages).toEqual(['Unsupported file type. b.txt'])
  })

  it('lets the file input offer HEIC beside JPEG, PNG and WebP, by type and by extension', () => {
    expect(ACCEPT_ATTRIBUTE.split(',')).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', '.jpeg', '.jpg', '.png', '.webp', '.heic', '.heif'])
  })

  it('reads an HEIF photo’s size from its largest image, for the pixel bound', async () => {
    const heic = new Uint8Array(await heicPhoto(640, 480, 1))
    expect(sniffChosenType(heic)).toBe('image/heif')
    expect(readPhotoFacts(heic)).toEqual({ type: 'image/heif', width: 640, height: 480, orientation: 1, alpha: true })
  })
})

describe('the messages', () => {
  it('says the image service’s limit in its own figure: "File is too big (max 5 MB)"', () => {
    expect(MESSAGES.tooBig).toBe('File is too big (max 5 MB)')
    expect(UPLOAD_MAX_BYTES).toBe(5 * 1024 * 1024)
  })

  it('tells how to send a HEIC photo as a JPEG, naming it', () => {
    expect(heicMessage('IMG_0042.HEIC')).toBe(
      'This browser can’t open HEIC photos: IMG_0042.HEIC. Send it as a JPEG: share it from Photos (Mail sends a JPEG), or set the iPhone to Settings ▸ Camera ▸ Formats ▸ Most Compatible.',
    )
  })
})

describe('what a card and screen readers say of a photo on its way', () => {
  it('labels each phase, with its progress while prepared and sent', () => {
    expect(phaseLabel('waiting', 0)).toBe('Waiting')
    expect(phaseLabel('preparing', preparingProgress('decoding'))).toBe('Preparing 0 %')
    expect(phaseLabel('preparing', preparingProgress('encoding'))).toBe('Preparing 50 %')
    expect(phaseLabel('sending', 45)).toBe('Sending 45 %')
    expect(phaseLabel('ready', 100)).toBe('Ready')
  })

  it('announces a phase with the photo’s place, without its progress', () => {
    expect(phaseAnnouncement(3, 10, 'preparing')).toBe('Photo 3 of 10: preparing')
    expect(phaseAnnouncement(3, 10, 'ready')).toBe('Photo 3 of 10: ready')
  })
})

/** The IFD1 (thumbnail) of a JPEG's EXIF: the JPEG it points at, or null. Big-endian TIFF, as the test photos write it. */
function exifThumbnail(jpeg: Buffer): Buffer | null {
  if (jpeg.readUInt16BE(2) !== 0xffe1 || jpeg.toString('latin1', 6, 10) !== 'Exif') return null
  const tiff = jpeg.subarray(12)
  const ifd0 = tiff.readUInt32BE(4)
  const ifd1 = tiff.readUInt32BE(ifd0 + 2 + tiff.readUInt16BE(ifd0) * 12)
  const tags = new Map<number, number>()
  for (let i = 0; i < tiff.readUInt16BE(ifd1); i++) {
    const entry = ifd1 + 2 + i * 12
    tags.set(tiff.readUInt16BE(entry), tiff.readUInt16BE(entry + 2) === 3 ? tiff.readUInt16BE(entry + 8) : tiff.readUInt32BE(entry + 8))
  }
  if (tags.get(0x0103) !== 6) return null
  return tiff.subarray(tags.get(0x0201)!, tags.get(0x0201)! + tags.get(0x0202)!)
}

describe('the test photos, as cameras and editors write them', () => {
  it('a camera photo has its orientation, camera and GPS tags, and a JPEG thumbnail in its EXIF, and shows upright each way it is stored', async () => {
    for (const orientation of [1, 3, 6, 8] as const) {
      const photo = await cameraPhoto(1000, 750, 1, orientation)
      const meta = await sharp(photo).metadata()
      expect(meta.orientation).toBe(orientation)
      expect(readPhotoFacts(new Uint8Array(photo))).toMatchObject({ type: 'image/jpeg', orientation })
      const thumbnail = exifThumbnail(photo)!
      expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 120 })
      // Upright: red along the top.
      const { data } = await sharp(photo).rotate().resize(1, 10, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
      expect([data[0]! > 150, data[1]! + data[2]! < 150], `orientation ${orientation}`).toEqual([true, true])
      expect(data[27]! + data[28]! + data[29]!, `orientation ${orientation}`).toBeGreaterThan(300)
    }
    const exif = (await sharp(await cameraPhoto(1000, 750, 1)).metadata()).exif!.toString('latin1')
    expect(exif).toContain('Phone')
    expect(exif).toContain('Camera 12')
  })

  it('a PNG has an alpha channel, transparent or not; a CMYK JPEG is in CMYK; a HEIC is branded heic', async () => {
    const clear = await sharp(await alphaPng(60, 40, 1, true)).raw().toBuffer()
    const solid = await sharp(await alphaPng(60, 40, 1, false)).raw().toBuffer()
    const alphas = (raw: Buffer) => new Set(raw.filter((_, i) => i % 4 === 3))
    expect([...alphas(solid)]).toEqual([255])
    expect(alphas(clear).has(0)).toBe(true)
    expect(await sharp(await cmykJpeg(60, 40, 1)).metadata()).toMatchObject({ format: 'jpeg', space: 'cmyk' })
    expect((await heicPhoto(60, 40, 1)).toString('latin1', 4, 12)).toBe('ftypheic')
  })
})
