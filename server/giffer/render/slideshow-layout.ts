/** Where a slideshow's cards sit: pure geometry, shared by the renderer and the memory estimate. */
import type { SlideshowJob } from '../jobs.js'

/** Rows of a frame drawn and read back at a time: only a band's pixels are ever held as RGBA. */
export const BAND_ROWS = 64

/** In overlay mode the front card takes this share of the width. */
const OVERLAY_FRONT_SHARE = 0.6

export interface Card {
  /** Which image, relative to the frame's current one: 0 current, -1 previous, +1 next… */
  offset: number
  x: number
  y: number
  width: number
  height: number
  /** Covered by the overlay colour (overlay mode's back cards). */
  dimmed: boolean
}

export interface SlideshowLayout {
  width: number
  height: number
  /** Back to front. */
  cards: Card[]
}

/**
 * Where the cards sit in every frame.
 * - row: `count` equal cards side by side; each frame moves on by one image (count 1 is the
 *   classic slideshow).
 * - trio: the current image in the middle, `tweak` times the size of its neighbours; with
 *   `overflow` that share of each neighbour is outside the frame (the -cut layouts).
 * - overlay: a deck: the neighbours behind the current image, dimmed by the overlay colour.
 */
export function slideshowLayout(job: Pick<SlideshowJob, 'mode' | 'width' | 'spacing' | 'count' | 'tweak' | 'overflow' | 'height'>): SlideshowLayout {
  const W = job.width
  const gap = job.spacing
  if (job.mode === 'row') {
    const count = Math.max(1, job.count)
    const cardW = Math.max(1, Math.floor((W - (count + 1) * gap) / count))
    const cardH = Math.max(1, Math.round(cardW * job.height))
    const used = count * cardW + (count - 1) * gap
    const left = Math.floor((W - used) / 2)
    const cards = Array.from({ length: count }, (_, i) => ({
      offset: i,
      x: left + i * (cardW + gap),
      y: gap,
      width: cardW,
      height: cardH,
      dimmed: false,
    }))
    return { width: W, height: cardH + 2 * gap, cards }
  }
  const tweak = Math.max(1, job.tweak)
  const visibleSide = 1 - job.overflow
  if (job.mode === 'trio') {
    const frontW = Math.floor((W - 2 * gap) / (1 + (2 * visibleSide) / tweak))
    const sideW = Math.floor(frontW / tweak)
    const frontH = Math.round(frontW * job.height)
    const sideH = Math.round(sideW * job.height)
    const H = frontH + 2 * gap
    const frontX = Math.floor((W - frontW) / 2)
    const sideY = Math.floor((H - sideH) / 2)
    return {
      width: W,
      height: H,
      cards: [
        { offset: -1, x: frontX - gap - sideW, y: sideY, width: sideW, height: sideH, dimmed: false },
        { offset: 1, x: frontX + frontW + gap, y: sideY, width: sideW, height: sideH, dimmed: false },
        { offset: 0, x: frontX, y: gap, width: frontW, height: frontH, dimmed: false },
      ],
    }
  }
  const frontW = Math.floor(W * OVERLAY_FRONT_SHARE)
  const frontH = Math.round(frontW * job.height)
  const backW = Math.floor(frontW / tweak)
  const backH = Math.round(backW * job.height)
  const H = frontH + 2 * gap
  const backY = Math.floor((H - backH) / 2)
  return {
    width: W,
    height: H,
    cards: [
      { offset: -1, x: gap - Math.round(job.overflow * backW), y: backY, width: backW, height: backH, dimmed: true },
      { offset: 1, x: W - gap - backW + Math.round(job.overflow * backW), y: backY, width: backW, height: backH, dimmed: true },
      { offset: 0, x: Math.floor((W - frontW) / 2), y: gap, width: frontW, height: frontH, dimmed: false },
    ],
  }
}
