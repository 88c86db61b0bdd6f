import { describe, expect, it } from 'vitest'
import { slideshowSettingsFromQuery } from '../../server/generators/slideshow/query.js'
import { slideshowSchema } from '../../server/giffer/schemas.js'
import {
  ASPECT_HEIGHTS,
  ASPECTS,
  clampSetting,
  fileProblem,
  focusAfterRemoval,
  isRemoveKey,
  layoutOverflow,
  layoutTweak,
  MODE_PATHS,
  moveItem,
  SLIDESHOW_DEFAULTS,
  SLIDESHOW_MAX_IMAGES,
  slideshowQuery,
  slideshowRequest,
  slotsLeft,
  sniffImageType,
  storedFileName,
  triageFiles,
  UPLOAD_MAX_BYTES,
  type SlideshowSettings,
} from '../../shared/generators/slideshow/slideshow.js'

const MB = 1024 * 1024
/** A chosen file that starts as a PNG does: what the uploader judges it by. */
const png = (name: string, size = 1000) => ({ name, size, head: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) })
const gif = (name: string) => ({ name, size: 10, head: new TextEncoder().encode('GIF89a') })

describe('file checks', () => {
  it('refuses bytes that are no JPEG, PNG, WebP or HEIC with "Unsupported file type." followed by the file name', () => {
    expect(fileProblem(gif('anim.gif'))).toBe('Unsupported file type. anim.gif')
    expect(fileProblem({ name: 'notes.txt', size: 10, head: new TextEncoder().encode('notes') })).toBe('Unsupported file type. notes.txt')
  })

  it('takes a photo of any size (it is reduced before it is sent), and refuses an empty file', () => {
    expect(UPLOAD_MAX_BYTES).toBe(5 * MB)
    expect(fileProblem(png('camera.png', 48 * MB))).toBeNull()
    expect(fileProblem(png('small.png'))).toBeNull()
    expect(fileProblem(png('empty.png', 0))).toBe('Can’t upload. Try again or choose another image.')
  })
})

describe('the 10-image cap', () => {
  it('takes at most 10 images, and so does the image service', () => {
    expect(SLIDESHOW_MAX_IMAGES).toBe(10)
    const images = (count: number) => Array.from({ length: count }, (_, i) => `/giffer/uploads/2026-11-25/0123456789abcdef0123456789abcdef/photo-${(i % 10) + 1}.png`)
    expect(slideshowSchema.safeParse({ images: images(10) }).success).toBe(true)
    const refused = slideshowSchema.safeParse({ images: images(11) })
    expect(refused.error?.issues[0]?.message).toBe('must hold at most 10 images')
  })

  it('accepts files up to the free slots and says so for the rest', () => {
    const files = Array.from({ length: 4 }, (_, i) => png(`p${i}.png`))
    const { accepted, messages } = triageFiles(8, files)
    expect(accepted.map((file) => file.name)).toEqual(['p0.png', 'p1.png'])
    expect(messages).toEqual(['You can add up to 10 images.'])
  })

  it('reports each refused file and still takes the good ones', () => {
    const { accepted, messages } = triageFiles(0, [png('a.png'), gif('b.gif'), png('c.png', 0), png('d.png', 12 * MB)])
    expect(accepted.map((file) => file.name)).toEqual(['a.png', 'd.png'])
    expect(messages).toEqual(['Unsupported file type. b.gif', 'Can’t upload. Try again or choose another image.'])
  })

  it('hides the upload button at 10 images: no slots left', () => {
    expect(slotsLeft(0)).toBe(10)
    expect(slotsLeft(9)).toBe(1)
    expect(slotsLeft(10)).toBe(0)
    expect(slotsLeft(12)).toBe(0)
  })

  it('names stored files uniquely by sequence, with the extension of their real type', () => {
    expect(storedFileName(1, 'image/jpeg')).toBe('photo-1.jpg')
    expect(storedFileName(2, 'image/png')).toBe('photo-2.png')
    expect(storedFileName(10, 'image/webp')).toBe('photo-10.webp')
  })

  it('knows JPEG, PNG and WebP by their first bytes, whatever the name says, and nothing else', () => {
    const bytes = (...values: (number | string)[]) => Uint8Array.from(values.flatMap((value) => (typeof value === 'string' ? [...value].map((c) => c.charCodeAt(0)) : [value])))
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg')
    expect(sniffImageType(bytes(0x89, 'PNG\r\n', 0x1a, '\n'))).toBe('image/png')
    expect(sniffImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBP'))).toBe('image/webp')
    expect(sniffImageType(bytes('GIF89a'))).toBeNull()
    expect(sniffImageType(bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBeNull()
    expect(sniffImageType(new Uint8Array(0))).toBeNull()
  })
})

describe('reordering and removing cards', () => {
  it('moves an item to a new place, clamping the target', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd'])
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c'])
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b'])
    expect(moveItem(['a', 'b', 'c'], 1, -3)).toEqual(['b', 'a', 'c'])
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b'])
  })

  it('removes with Delete or Backspace only', () => {
    expect(isRemoveKey('Delete')).toBe(true)
    expect(isRemoveKey('Backspace')).toBe(true)
    expect(isRemoveKey('d')).toBe(false)
  })

  it('focuses the next card after a removal, the one before at the end, none when the last goes', () => {
    expect(focusAfterRemoval(0, 3)).toBe(0)
    expect(focusAfterRemoval(1, 3)).toBe(1)
    expect(focusAfterRemoval(2, 3)).toBe(1)
    expect(focusAfterRemoval(0, 1)).toBeNull()
  })
})

describe('layout maths', () => {
  it('gives aspect heights as multiples of the width, which the image service also takes by name', () => {
    expect(ASPECT_HEIGHTS).toEqual({ '1:1': 1, '4:5': 5 / 4, '3:2': 2 / 3, '16:9': 9 / 16, '9:16': 16 / 9 })
    for (const aspect of ASPECTS) {
      const byName = slideshowSchema.parse({ images: ['/giffer/uploads/2026-11-25/0123456789abcdef0123456789abcdef/photo-1.png'], height: aspect })
      expect(byName.job('row', []).height, aspect).toBe(ASPECT_HEIGHTS[aspect])
    }
  })

  it('turns a layout into its tweak (soft 1.1, focus 1.3, hero 1.5) and overflow (0.5 when cut)', () => {
    expect([layoutTweak('soft'), layoutTweak('focus'), layoutTweak('hero'), layoutTweak('hero-cut')]).toEqual([1.1, 1.3, 1.5, 1.5])
    expect([layoutOverflow('soft'), layoutOverflow('focus-cut')]).toEqual([0, 0.5])
  })

  it('keeps numbers within bounds and on their steps', () => {
    expect(clampSetting('delay', 0)).toBe(0.1)
    expect(clampSetting('delay', 0.30000000000000004)).toBe(0.3)
    expect(clampSetting('delay', 99)).toBe(10)
    expect(clampSetting('radius', 12.4)).toBe(12)
    expect(clampSetting('opacity', 52)).toBe(50)
    expect(clampSetting('gap', Number.NaN)).toBe(0)
  })
})

describe('the image service request', () => {
  const urls = ['/giffer/uploads/2026-11-25/0123456789abcdef0123456789abcdef/photo-1.png', '/giffer/uploads/2026-11-25/0123456789abcdef0123456789abcdef/photo-2.jpg']
  const settings = (patch: Partial<SlideshowSettings>): SlideshowSettings => ({ ...SLIDESHOW_DEFAULTS, ...patch })
  /** What the service makes of the request: it must accept it as it is. */
  const job = (current: SlideshowSettings) => {
    const parsed = slideshowSchema.parse(slideshowRequest(current, urls))
    expect(parsed.urls).toEqual(urls)
    const mode = MODE_PATHS[current.mode].replace('slideshow/create-', '') as 'row' | 'trio' | 'overlay'
    return parsed.job(mode, [])
  }

  it('makes the slideshow mode a row of one on create-row, 900 px wide on white, delay in milliseconds', () => {
    expect(MODE_PATHS.slideshow).toBe('slideshow/create-row')
    const result = job(settings({ mode: 'slideshow', delay: 2.5, radius: 16, aspect: '4:5', border: 3, borderColor: '#ff0000', gap: 10 }))
    expect(result).toMatchObject({ mode: 'row', count: 1, width: 900, delayMs: 2500, radius: 16, height: 1.25, borderWidth: 3, borderColor: [255, 0, 0], spacing: 10, background: [255, 255, 255] })
  })

  it('sends the columns as the row count, and the image service takes the page’s 5 at most', () => {
    expect(job(settings({ mode: 'row', columns: 4 }))).toMatchObject({ mode: 'row', count: 4 })
    expect(job(settings({ mode: 'row', columns: 5 }))).toMatchObject({ mode: 'row', count: 5 })
    const sixColumns = slideshowSchema.safeParse({ ...slideshowRequest(settings({ mode: 'row' }), urls), count: 6 })
    expect(sixColumns.error?.issues[0]?.message).toBe('must be between 1 and 5')
  })

  it('is drawn 200 to 900 px wide by the image service, 900 unless told', () => {
    expect(slideshowSchema.parse({ images: urls }).job('row', []).width).toBe(900)
    expect(slideshowSchema.safeParse({ images: urls, width: 901 }).error?.issues[0]?.message).toBe('must be between 200 and 900')
    expect(slideshowSchema.safeParse({ images: urls, width: 199 }).error?.issues[0]?.message).toBe('must be between 200 and 900')
  })

  it('sends the trio layout as tweak and overflow to create-trio', () => {
    expect(MODE_PATHS.trio).toBe('slideshow/create-trio')
    expect(job(settings({ mode: 'trio', trio: 'hero-cut', aspect: '9:16' }))).toMatchObject({ mode: 'trio', tweak: 1.5, overflow: 0.5, height: 16 / 9 })
  })

  it('sends the overlay layout, a black veil and its opacity to create-overlay', () => {
    expect(MODE_PATHS.overlay).toBe('slideshow/create-overlay')
    expect(job(settings({ mode: 'overlay', overlay: 'soft', opacity: 70 }))).toMatchObject({ mode: 'overlay', tweak: 1.1, overflow: 0, overlayColor: [0, 0, 0], overlayOpacity: 0.7 })
  })

  it('is refused by the service without images, with the page’s own message', () => {
    const result = slideshowSchema.safeParse(slideshowRequest(SLIDESHOW_DEFAULTS, []))
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('Please upload at least one image.')
  })
})

describe('settings in the address', () => {
  it('writes only what differs from the defaults, and reads it back', () => {
    expect(slideshowQuery(SLIDESHOW_DEFAULTS)).toBe('')
    const changed: SlideshowSettings = { ...SLIDESHOW_DEFAULTS, mode: 'overlay', delay: 2.5, overlay: 'hero-cut', opacity: 30, borderColor: '#ff8800', gap: 12 }
    const query = slideshowQuery(changed)
    expect(query).toBe('mode=overlay&delay=2.5&overlay=hero-cut&opacity=30&borderColor=ff8800&gap=12')
    expect(slideshowSettingsFromQuery(new URLSearchParams(query))).toEqual(changed)
  })

  it('falls back to the default for each unusable setting on its own', () => {
    const settings = slideshowSettingsFromQuery(new URLSearchParams('mode=carousel&delay=0&radius=abc&aspect=2:1&columns=9&trio=huge&opacity=-5&border=12&borderColor=red&gap=500'))
    expect(settings).toEqual({ ...SLIDESHOW_DEFAULTS, border: 12 })
  })

  it('snaps readable values to their steps', () => {
    expect(slideshowSettingsFromQuery(new URLSearchParams('delay=1.234&radius=7.6')).delay).toBe(1.2)
    expect(slideshowSettingsFromQuery(new URLSearchParams('radius=7.6')).radius).toBe(8)
  })
})
