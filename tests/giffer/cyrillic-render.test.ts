/**
 * Russian drawn in each font's own face: every font the coverage marks Cyrillic draws a Cyrillic
 * line differently from the fallback face and has a real glyph for each of its letters; a font
 * without Cyrillic gets a notice instead of the fallback face under its name.
 */
import { readFileSync } from 'node:fs'
import { loadImage, createCanvas } from '@napi-rs/canvas'
import * as fontkit from 'fontkit'
import { describe, expect, it } from 'vitest'
import { fontScripts } from '../../server/giffer/font-coverage.js'
import { findFont, fontFilePath, pickableFonts, type FontEntry } from '../../server/giffer/fonts.js'
import type { ScrollingTextJob, TextPreviewJob } from '../../server/giffer/jobs.js'
import { cssFont, fallbackCssFont } from '../../server/giffer/render/canvas-fonts.js'
import { renderCountdown } from '../../server/giffer/render/countdown.js'
import { renderScrollingText } from '../../server/giffer/render/scrolling-text.js'
import { drawTextLines, missingGlyphsNotice, renderTextPreview } from '../../server/giffer/render/text-preview.js'
import { COUNTDOWN_CAPTION_PRESETS } from '../../shared/generators/countdown/captions.js'
import { decodeGif } from './setup.js'

const SIZE = 32
const cyrillicFonts = pickableFonts.filter((font) => fontScripts(font).includes('cyrillic'))

function previewJob(font: FontEntry, lines: string[]): TextPreviewJob {
  return { kind: 'text-preview', lines, font: font.id, weight: font.weights[0]!, fontSize: SIZE, align: 'left', lineHeight: 1.2, color: [0, 0, 0, 1], padding: 4, scale: 1, stroke: null }
}

interface Ink {
  width: number
  height: number
  alpha: Uint8Array
}

/** The alpha channel of a PNG, cropped to its ink. */
async function inkOf(png: Uint8Array): Promise<Ink> {
  const image = await loadImage(Buffer.from(png))
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(image, 0, 0)
  const { data } = ctx.getImageData(0, 0, image.width, image.height)
  let x0 = image.width
  let y0 = image.height
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (data[(y * image.width + x) * 4 + 3]! > 0) {
        x0 = Math.min(x0, x)
        x1 = Math.max(x1, x)
        y0 = Math.min(y0, y)
        y1 = Math.max(y1, y)
      }
    }
  }
  if (x1 < 0) return { width: 0, height: 0, alpha: new Uint8Array() }
  const width = x1 - x0 + 1
  const height = y1 - y0 + 1
  const alpha = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) alpha[y * width + x] = data[((y0 + y) * image.width + x0 + x) * 4 + 3]!
  return { width, height, alpha }
}

/** Share of the ink's pixels that differ by more than a little antialiasing; 1 when the boxes differ in size. */
function inkDifference(a: Ink, b: Ink): number {
  if (a.width !== b.width || a.height !== b.height) return 1
  let differing = 0
  for (let i = 0; i < a.alpha.length; i++) if (Math.abs(a.alpha[i]! - b.alpha[i]!) > 64) differing++
  return differing / a.alpha.length
}

// Letters only, no spaces or punctuation: a font without Cyrillic would leave every pixel to the fallback face.
const CYRILLIC_LINES = ['Привет', 'мир']

async function ownAndFallback(font: FontEntry): Promise<[Ink, Ink]> {
  const job = previewJob(font, CYRILLIC_LINES)
  const own = await drawTextLines(job, cssFont(font, job.weight, SIZE))
  const fallback = await drawTextLines(job, fallbackCssFont(job.weight, SIZE))
  return [await inkOf(own.body), await inkOf(fallback.body)]
}

describe('Cyrillic in each font marked Cyrillic', () => {
  it('marks enough fonts to test', () => {
    expect(cyrillicFonts.length).toBeGreaterThanOrEqual(70)
  })

  it('the comparison catches the fallback face: a Latin-only font draws Russian exactly like the fallback', async () => {
    const [own, fallback] = await ownAndFallback(findFont('lato')!)
    expect(own.width).toBeGreaterThan(0)
    expect(inkDifference(own, fallback)).toBeLessThan(0.02)
  })

  it.each(cyrillicFonts.map((font) => [font.id, font] as const))('%s draws "Привет мир" in its own face', async (_id, font) => {
    const [own, fallback] = await ownAndFallback(font)
    expect(own.width).toBeGreaterThan(0)
    expect(inkDifference(own, fallback)).toBeGreaterThan(0.1)
  })

  it.each(cyrillicFonts.map((font) => [font.id, font] as const))('%s has a drawn glyph, not a missing-glyph box, for every letter', (_id, font) => {
    for (const weight of font.weights) {
      const files = font.subsets.map((subset) => fontkit.create(readFileSync(fontFilePath(font, subset, weight))))
      for (const char of 'ПриветмирЁё') {
        const code = char.codePointAt(0)!
        // The renderer tries the subset files in order; the first that maps the letter draws it.
        const file = files.find((candidate) => 'hasGlyphForCodePoint' in candidate && candidate.hasGlyphForCodePoint(code))
        expect(file, `${font.id} ${weight} ${char}`).toBeDefined()
        const glyph = (file as fontkit.Font).glyphForCodePoint(code)
        expect(glyph.id, `${font.id} ${weight} ${char}: .notdef`).not.toBe(0)
        const box = glyph.bbox
        expect(box.maxX - box.minX, `${font.id} ${weight} ${char}: empty glyph`).toBeGreaterThan(0)
        expect(box.maxY - box.minY, `${font.id} ${weight} ${char}: empty glyph`).toBeGreaterThan(0)
      }
    }
  })
})

describe('mixed Latin and Cyrillic', () => {
  it('draws a mixed line as a text image in a Cyrillic font, and refuses with a notice in a Latin-only one', async () => {
    const lines = ['Sale — Скидка 50%', 'Black Friday · Чёрная пятница']
    const caveat = await renderTextPreview(previewJob(findFont('caveat')!, lines))
    expect(caveat.notice).toBeUndefined()
    const allura = await renderTextPreview(previewJob(findFont('allura')!, lines))
    expect(allura.notice).toBe('missing_glyphs')
    expect(missingGlyphsNotice(findFont('allura')!, lines.join('\n'))).toBe('No Cyrillic letters in this font')
    // The notice is a small grey label, not the text drawn in another face.
    expect(allura.height).toBeLessThan(caveat.height)
  })

  it('names rarer letters a Cyrillic font lacks', () => {
    // Bellota has the Russian alphabet but not the Ukrainian Ґ and Ї.
    expect(missingGlyphsNotice(findFont('bellota')!, 'Привет')).toBeNull()
    expect(missingGlyphsNotice(findFont('bellota')!, 'Привет Ґанок, Їжак')).toBe('This font has no Ґ or Ї')
    expect(missingGlyphsNotice(findFont('roboto')!, 'Привет, Ґанок')).toBeNull()
  })

  it('scrolls a mixed line in a Cyrillic font', async () => {
    const job: ScrollingTextJob = {
      kind: 'scrolling-text',
      text: 'Sale · Скидка 50% · Ёлки',
      divider: '★',
      iconStyle: 'filled',
      font: 'russo-one',
      weight: 400,
      color: [0, 0, 0],
      dividerColor: [200, 0, 0],
      background: [255, 255, 255],
      reverse: false,
      fontSize: 24,
      flicker: [],
      width: 300,
      scale: 1,
      framesMax: 40,
    }
    const mixed = await renderScrollingText(job)
    const latin = await renderScrollingText({ ...job, text: 'Sale · Skidka 50% · Yolki' })
    expect(mixed.frames).toBeGreaterThan(1)
    const a = decodeGif(mixed.body).picture(0)
    const b = decodeGif(latin.body).picture(0)
    expect(a.length).toBe(b.length)
    expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).not.toBe(0)
  })
})

describe('countdown captions in Russian', () => {
  it('draws the Russian preset under the digits', async () => {
    const job = {
      kind: 'countdown' as const,
      remainingSeconds: 3 * 86400 + 4 * 3600 + 5 * 60 + 6,
      frames: 3,
      font: 'roboto',
      weight: 700,
      color: [0, 0, 0] as [number, number, number],
      background: [255, 255, 255] as [number, number, number],
      captions: { ...COUNTDOWN_CAPTION_PRESETS.ru },
      scale: 1,
      format: 'gif' as const,
    }
    const russian = await renderCountdown(job)
    const english = await renderCountdown({ ...job, captions: { ...COUNTDOWN_CAPTION_PRESETS.en } })
    expect(russian.height).toBe(150)
    const ru = decodeGif(russian.body).picture(0)
    const en = decodeGif(english.body).picture(0)
    // The digits are the same; only the caption strip differs.
    const row = (picture: Uint8Array, y: number) => picture.subarray(y * 600 * 4, (y + 1) * 600 * 4)
    let captionRowsDiffer = 0
    for (let y = 110; y < 150; y++) if (Buffer.compare(Buffer.from(row(ru, y)), Buffer.from(row(en, y))) !== 0) captionRowsDiffer++
    expect(captionRowsDiffer).toBeGreaterThan(5)
    for (let y = 0; y < 90; y++) expect(Buffer.compare(Buffer.from(row(ru, y)), Buffer.from(row(en, y))), `row ${y}`).toBe(0)
  })
})
