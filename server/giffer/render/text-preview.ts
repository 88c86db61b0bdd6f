import { createCanvas } from '@napi-rs/canvas'
import { missingLettersMessage, noLettersMessage, scriptOfLetter, type FontScript } from '../../../shared/generators/font-coverage.js'
import { fontScripts, lettersMissing } from '../font-coverage.js'
import { findFont, type FontEntry } from '../fonts.js'
import { RenderRefused, type RenderedImage, type Rgba, type TextPreviewJob } from '../jobs.js'
import { MAX_FRAME_PIXELS } from '../limits.js'
import { cssFont, fallbackCssFont } from './canvas-fonts.js'
import { maskCanvas } from './masks.js'
import { encodePng } from './png.js'

function cssColour([r, g, b, a]: Rgba): string {
  return `rgba(${r}, ${g}, ${b}, ${a})`
}

/** Grey that reads on light and dark cards alike. */
const NOTICE_COLOUR = 'rgba(107, 114, 128, 1)'
const NOTICE_SIZE_MAX = 20

/**
 * What to say instead of drawing, when the font lacks letters of the text: the fallback faces
 * would otherwise draw them under this font's name. Null when the font has every letter.
 */
export function missingGlyphsNotice(font: FontEntry, text: string): string | null {
  const missing = lettersMissing(font, text)
  if (!missing.length) return null
  const covered = fontScripts(font)
  const absent = new Set<FontScript>()
  for (const letter of missing) {
    const script = scriptOfLetter(letter)
    if (script && !covered.includes(script)) absent.add(script)
  }
  return absent.size ? noLettersMessage([...absent]) : missingLettersMessage(missing)
}

/** The notice as a small image in the fallback face, so a card showing the picture shows why. */
async function renderNotice(message: string, job: TextPreviewJob): Promise<RenderedImage> {
  const s = job.scale
  const fontValue = fallbackCssFont(400, Math.min(job.fontSize, NOTICE_SIZE_MAX) * s)
  const { ctx: probe } = maskCanvas(1, 1)
  probe.font = fontValue
  const m = probe.measureText(message)
  const pad = Math.ceil(job.padding * s)
  const ascent = Math.ceil(m.fontBoundingBoxAscent)
  const width = Math.ceil(m.width) + 2 * pad
  const height = ascent + Math.ceil(m.fontBoundingBoxDescent) + 2 * pad
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  ctx.font = fontValue
  ctx.fillStyle = NOTICE_COLOUR
  ctx.fillText(message, pad, pad + ascent)
  const body = await encodePng(ctx.getImageData(0, 0, width, height).data, width, height)
  return { ok: true, body, contentType: 'image/png', width, height, frames: 1, notice: 'missing_glyphs' }
}

/**
 * A text image on a transparent background: up to three lines, aligned against each other,
 * with an optional outline. The canvas is sized to the ink, not to the advance widths, so
 * script swashes and outlines are never clipped. A text with letters the font lacks gets a
 * notice saying so instead.
 */
export async function renderTextPreview(job: TextPreviewJob): Promise<RenderedImage> {
  const font = findFont(job.font)
  if (!font) throw new Error(`unknown font ${job.font}`)
  const notice = missingGlyphsNotice(font, job.lines.join('\n'))
  if (notice) return renderNotice(notice, job)
  return drawTextLines(job, cssFont(font, job.weight, job.fontSize * job.scale))
}

/** Draws the job's lines in a CSS font value (the chosen font's stack) at the job's size and style. */
export async function drawTextLines(job: TextPreviewJob, cssFontValue: string): Promise<RenderedImage> {
  const s = job.scale
  const fontPx = job.fontSize * s
  const lineH = fontPx * job.lineHeight
  const pad = job.padding * s
  const outline = job.stroke ? job.stroke.width * s : 0

  // 1. Lay the lines out on a common left edge and find the ink's bounding box.
  const { ctx: probe } = maskCanvas(1, 1)
  probe.font = cssFontValue
  const measured = job.lines.map((line) => probe.measureText(line))
  const widest = Math.max(...measured.map((m) => m.width))
  const fontAscent = measured[0]?.fontBoundingBoxAscent || fontPx * 0.8
  const fontDescent = measured[0]?.fontBoundingBoxDescent || fontPx * 0.2
  let x0 = Infinity
  let x1 = -Infinity
  let y0 = Infinity
  let y1 = -Infinity
  const placed = measured.map((m, i) => {
    const x = job.align === 'left' ? 0 : job.align === 'right' ? widest - m.width : (widest - m.width) / 2
    const y = i * lineH + (lineH - fontAscent - fontDescent) / 2 + fontAscent
    const hasInk = m.actualBoundingBoxRight + m.actualBoundingBoxLeft > 0
    if (hasInk) {
      x0 = Math.min(x0, x - m.actualBoundingBoxLeft)
      x1 = Math.max(x1, x + m.actualBoundingBoxRight)
      y0 = Math.min(y0, y - m.actualBoundingBoxAscent)
      y1 = Math.max(y1, y + m.actualBoundingBoxDescent)
    }
    return { x, y }
  })
  if (!Number.isFinite(x0)) {
    throw new RenderRefused({ status: 422, code: 'nothing_to_draw', message: 'The text has no visible characters in this font.', field: 'text' })
  }
  // The line boxes count too, so line height and alignment stay visible in the result.
  y0 = Math.min(y0, 0)
  y1 = Math.max(y1, job.lines.length * lineH)
  x0 = Math.min(x0, 0)
  x1 = Math.max(x1, widest)

  const margin = pad + outline
  const width = Math.ceil(x1 - x0 + 2 * margin)
  const height = Math.ceil(y1 - y0 + 2 * margin)
  if (width * height > MAX_FRAME_PIXELS) {
    throw new RenderRefused({ status: 413, code: 'too_large', message: `The image would be ${width}×${height} pixels: too large.`, field: 'text' })
  }

  // 2. Outline first, fill on top: the outline shows only outside the letters.
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  ctx.font = cssFontValue
  ctx.translate(margin - x0, margin - y0)
  if (job.stroke && outline > 0) {
    ctx.lineJoin = 'round'
    ctx.miterLimit = 2
    ctx.lineWidth = outline * 2
    ctx.strokeStyle = cssColour(job.stroke.color)
    job.lines.forEach((line, i) => ctx.strokeText(line, placed[i]!.x, placed[i]!.y))
  }
  ctx.fillStyle = cssColour(job.color)
  job.lines.forEach((line, i) => ctx.fillText(line, placed[i]!.x, placed[i]!.y))
  const body = await encodePng(ctx.getImageData(0, 0, width, height).data, width, height)
  return { ok: true, body, contentType: 'image/png', width, height, frames: 1 }
}
