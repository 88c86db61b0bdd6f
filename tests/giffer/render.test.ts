import { existsSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { fontCatalogue, fontFilePath, fontsInGroup, findFont, nearestWeight } from '../../server/giffer/fonts.js'
import { projectRoot } from '../../server/project-root.js'
import { RenderRefused, type ScrollingTextJob, type SlideshowJob } from '../../server/giffer/jobs.js'
import { changedSince, headerOf } from '../../server/giffer/photo-header.js'
import { countdownParts } from '../../server/giffer/render/countdown.js'
import { renderScrollingText } from '../../server/giffer/render/scrolling-text.js'
import { planScroll } from '../../server/giffer/render/scrolling-plan.js'
import { renderSlideshow } from '../../server/giffer/render/slideshow.js'
import { memoryPhotoReader } from '../../server/giffer/photo-source.js'
import { slideshowLayout } from '../../server/giffer/render/slideshow-layout.js'
import { decodeCharacterReferences, parseFlickerPattern, textLines } from '../../server/giffer/schemas.js'
import { makePhoto, makeProgressivePhoto, oneCardJob } from './setup.js'

describe('fonts', () => {
  it('has the text-image groups Calligraphy 36, Gothic 42, Themed 39', () => {
    expect(fontsInGroup('calligraphy')).toHaveLength(36)
    expect(fontsInGroup('gothic')).toHaveLength(42)
    expect(fontsInGroup('themed')).toHaveLength(39)
    expect(fontsInGroup('general').length).toBeGreaterThan(5)
    expect(fontsInGroup('monospaced').length).toBeGreaterThan(3)
    expect(fontsInGroup('seasonal').length).toBeGreaterThan(3)
  })

  it('says for every Gothic font what kind of face it is, and has true blackletter among them', () => {
    for (const font of fontsInGroup('gothic')) expect(font.gothicStyle, font.id).toBeTruthy()
    expect(fontsInGroup('gothic').filter((font) => font.gothicStyle === 'blackletter').length).toBeGreaterThanOrEqual(10)
  })

  it('ships only open licences, with a file for every listed weight and subset', () => {
    for (const font of fontCatalogue) {
      expect(['OFL-1.1', 'Apache-2.0', 'UFL-1.0']).toContain(font.licence)
      for (const subset of font.subsets) {
        for (const weight of font.weights) expect(existsSync(fontFilePath(font, subset, weight)), `${font.id} ${subset} ${weight}`).toBe(true)
      }
    }
  })

  it('finds fonts by id or family name, never by path, and not the fallback or icon fonts', () => {
    expect(findFont('great-vibes')?.family).toBe('Great Vibes')
    expect(findFont('Great Vibes')?.id).toBe('great-vibes')
    expect(findFont('../node_modules/@fontsource/roboto/files/roboto-latin-400-normal.woff2')).toBeUndefined()
    expect(findFont('noto-sans')).toBeUndefined()
    expect(findFont('material-icons')).toBeUndefined()
  })

  it('picks the nearest shipped weight', () => {
    const cook = findFont('unifrakturcook')!
    expect(nearestWeight(cook, 400)).toBe(700)
    const roboto = findFont('roboto')!
    expect(nearestWeight(roboto, 900)).toBe(700)
    expect(nearestWeight(roboto, 100)).toBe(400)
  })

  it('finds the project root from sources', () => {
    expect(existsSync(path.join(projectRoot, 'data', 'fonts.json'))).toBe(true)
  })
})

describe('countdown arithmetic', () => {
  it('splits seconds into days, hours, minutes and seconds, never below zero nor above 999 days 23:59:59', () => {
    expect(countdownParts(3 * 86400 + 5 * 3600 + 7 * 60 + 9)).toEqual({ days: 3, hours: 5, minutes: 7, seconds: 9 })
    expect(countdownParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 })
    expect(countdownParts(200 * 86400).days).toBe(200)
    expect(countdownParts(5000 * 86400)).toEqual({ days: 999, hours: 23, minutes: 59, seconds: 59 })
  })
})

describe('scrolling plan', () => {
  it('makes the loop seamless: the period is a whole number of steps', () => {
    for (const width of [1, 37, 480, 1234, 5000, 20_000]) {
      for (const flicker of [0, 3, 7]) {
        const plan = planScroll(width, 2, 200, flicker)
        expect(plan.period).toBe(plan.frames * plan.step)
        expect(plan.period).toBeGreaterThanOrEqual(width)
        expect(plan.frames).toBeLessThanOrEqual(200)
        if (flicker) expect(plan.frames % flicker).toBe(0)
        expect(plan.delayMs % 10).toBe(0)
        expect(plan.delayMs).toBeGreaterThanOrEqual(20)
      }
    }
  })

  it('keeps the speed when a longer text needs bigger steps, up to 100 ms frames', () => {
    const short = planScroll(400, 2, 200, 0)
    const longer = planScroll(2000, 2, 200, 0)
    expect(longer.frames).toBe(200)
    expect(longer.step / longer.delayMs).toBeCloseTo(short.step / short.delayMs, 3)
    const longest = planScroll(8000, 2, 200, 0)
    expect(longest.delayMs).toBe(100)
  })
})

describe('request details', () => {
  it('turns numeric and hex character references into characters', () => {
    expect(decodeCharacterReferences('&#9733; &#x2764; &#X1F384;')).toBe('★ ❤ 🎄')
    expect(decodeCharacterReferences('&#xe87d;')).toBe('\ue87d')
    expect(decodeCharacterReferences('&#0; &#xD800; &#x110000; &amp;')).toBe('&#0; &#xD800; &#x110000; &amp;')
  })

  it('reads flicker patterns: 1 shown, 0 hidden, 2–9 dimmed', () => {
    expect(parseFlickerPattern('1105')).toEqual([1, 1, 0, 0.5])
    expect(parseFlickerPattern('')).toEqual([])
  })

  it('keeps 3 lines of 35 characters', () => {
    expect(textLines(`  ${'a'.repeat(40)}\nb\r\nc\nd  `)).toEqual(['a'.repeat(35), 'b', 'c'])
    expect(textLines('😀'.repeat(40))[0]).toHaveLength(70)
  })
})

describe('slideshow layouts', () => {
  const base = { width: 900, spacing: 0, count: 1, tweak: 1, overflow: 0, height: 1 }

  it('sizes the row by the aspect height', () => {
    expect(slideshowLayout({ ...base, mode: 'row', height: 5 / 4 }).height).toBe(1125)
    expect(slideshowLayout({ ...base, mode: 'row', height: 9 / 16 }).height).toBe(506)
    const three = slideshowLayout({ ...base, mode: 'row', count: 3, spacing: 10 })
    expect(three.cards).toHaveLength(3)
    expect(three.cards[2]!.x + three.cards[2]!.width).toBeLessThanOrEqual(900 - 10)
  })

  it('makes the trio centre tweak times its neighbours and pushes them half out with overflow 0.5', () => {
    const hero = slideshowLayout({ ...base, mode: 'trio', tweak: 1.5 })
    const [left, right, centre] = hero.cards
    expect(centre!.width / left!.width).toBeCloseTo(1.5, 1)
    expect(left!.x).toBeGreaterThanOrEqual(-1)
    const cut = slideshowLayout({ ...base, mode: 'trio', tweak: 1.5, overflow: 0.5 })
    expect(cut.cards[0]!.x).toBeCloseTo(-cut.cards[0]!.width / 2, -1)
    expect(cut.cards[1]!.x + cut.cards[1]!.width).toBeCloseTo(900 + cut.cards[1]!.width / 2, -1)
    expect(cut.cards[2]!.width).toBeGreaterThan(centre!.width)
  })

  it('dims the back cards of the overlay deck', () => {
    const deck = slideshowLayout({ ...base, mode: 'overlay', tweak: 1.3 })
    expect(deck.cards.map((card) => card.dimmed)).toEqual([true, true, false])
  })
})

describe('hard limits in the workers', () => {
  it('refuses a scrolling text beyond the frames × pixels bound with 413', async () => {
    const job: ScrollingTextJob = {
      kind: 'scrolling-text',
      text: 'Too big',
      divider: '',
      iconStyle: 'filled',
      font: 'roboto',
      weight: 400,
      color: [0, 0, 0],
      dividerColor: [0, 0, 0],
      background: [255, 255, 255],
      reverse: false,
      fontSize: 72,
      flicker: [],
      width: 5000,
      scale: 2,
      framesMax: 200,
    }
    await expect(renderScrollingText(job)).rejects.toThrow(RenderRefused)
  })

  it('refuses to decode an image over the pixel limit (decompression bomb) with 413', async () => {
    const png = await makePhoto(1, 8, 8, 'png')
    png.writeUInt32BE(30000, 16)
    png.writeUInt32BE(30000, 20)
    const job = {
      kind: 'slideshow' as const,
      mode: 'row' as const,
      // Its header as the store reads it: 30000×30000, as the bytes claim.
      photos: [(await headerOf(new Uint8Array(png)))!],
      delayMs: 1000,
      radius: 0,
      width: 300,
      background: [255, 255, 255] as [number, number, number],
      borderWidth: 0,
      borderColor: [0, 0, 0] as [number, number, number],
      spacing: 0,
      count: 1,
      tweak: 1,
      overflow: 0,
      height: 1,
      overlayColor: [0, 0, 0] as [number, number, number],
      overlayOpacity: 0,
    }
    await expect(renderSlideshow(job, memoryPhotoReader([new Uint8Array(png)]))).rejects.toSatisfy((error: unknown) => error instanceof RenderRefused && [413, 422].includes(error.refusal.status))
  })
})

describe('a photo that is not the one its header described', () => {
  const cheap = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg().toBuffer()

  it('is refused with 409 image_changed before any of its pixels is decoded: sharp reads its header, nothing more', async () => {
    const dear = await makeProgressivePhoto(7, 4000, 3000)
    // The photo estimated was as large a file as the one handed over: only their headers differ.
    const estimated = { ...(await headerOf(await cheap()))!, size: dear.length }
    const metadata = vi.spyOn(sharp.prototype, 'metadata')
    const decode = vi.spyOn(sharp.prototype, 'toBuffer')
    onTestFinished(() => {
      metadata.mockRestore()
      decode.mockRestore()
    })
    const refusal = await renderSlideshow(oneCardJob(estimated), memoryPhotoReader([dear])).then(
      () => null,
      (error: unknown) => (error instanceof RenderRefused ? error.refusal : error),
    )
    expect(refusal).toEqual({ status: 409, code: 'image_changed', message: 'Image 1 changed after it was checked. Please upload it again.', field: 'images.0' })
    expect(metadata).toHaveBeenCalled()
    expect(decode).not.toHaveBeenCalled()
  })

  it('draws the photo its header described', async () => {
    const photo = await cheap()
    const image = await renderSlideshow(oneCardJob((await headerOf(photo))!), memoryPhotoReader([photo]))
    expect(image.frames).toBe(1)
  })

  it.each([
    ['other dimensions', () => sharp({ create: { width: 300, height: 400, channels: 3, background: '#3a7' } }).jpeg().toBuffer()],
    ['progressive where it was not', () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg({ progressive: true }).toBuffer()],
    ['another type', () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).png().toBuffer()],
    ['more bytes than it had', async () => Buffer.concat([await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg().toBuffer(), Buffer.alloc(1)])],
    ['no image at all', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('is changed when it has %s', async (_change, made) => {
    const header = (await headerOf(await cheap()))!
    expect(await changedSince(header, await made())).toBe(true)
    expect(await changedSince(header, await cheap())).toBe(false)
  })
})
