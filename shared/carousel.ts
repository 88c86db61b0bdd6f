/** Scrolling behaviour of the site's carousels, free of any framework. */

/** Above this window width a carousel moves three slides per scroll, otherwise one (SPEC §9). */
export const CAROUSEL_WIDE_MIN_WIDTH = 1230
export const CAROUSEL_WIDE_STEP = 3
export const CAROUSEL_RESIZE_DEBOUNCE_MS = 500

export function slidesPerScroll(windowWidth: number): number {
  return windowWidth > CAROUSEL_WIDE_MIN_WIDTH ? CAROUSEL_WIDE_STEP : 1
}

export function debounce<Args extends unknown[]>(fn: (...args: Args) => void, waitMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const debounced = (...args: Args) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), waitMs)
  }
  debounced.cancel = () => clearTimeout(timer)
  return debounced
}

export interface Carousel {
  /** Scrolls by one step of slides: +1 forward, -1 back. */
  step(direction: 1 | -1): void
  /** Scrolls so that the slide at `index` is first in view. */
  goTo(index: number): void
  /** Index of the first slide in view. */
  firstVisible(): number
  destroy(): void
}

/**
 * Wires a carousel: `root` holds a `[data-carousel-track]` list whose children are the slides.
 * The track must be the slides' offset parent (position: relative). The step follows the window width, re-read at most every 500 ms while resizing.
 */
export function createCarousel(root: HTMLElement | null, onScrolled: (firstVisible: number) => void = () => {}): Carousel {
  if (!root) throw new Error('Carousel root is missing')
  const track = root.querySelector<HTMLElement>('[data-carousel-track]')
  if (!track) throw new Error('Carousel container is missing')
  const view = root.ownerDocument.defaultView ?? window

  let perScroll = slidesPerScroll(view.innerWidth)
  const onResize = debounce(() => {
    perScroll = slidesPerScroll(view.innerWidth)
  }, CAROUSEL_RESIZE_DEBOUNCE_MS)

  const slides = () => Array.from(track.children) as HTMLElement[]
  const firstVisible = () => {
    const left = track.scrollLeft
    const index = slides().findIndex((slide) => slide.offsetLeft + slide.offsetWidth / 2 > left)
    return Math.max(0, index)
  }
  const goTo = (index: number) => {
    const all = slides()
    const target = all[Math.max(0, Math.min(index, all.length - 1))]
    if (target) track.scrollTo({ left: target.offsetLeft, behavior: 'smooth' })
  }

  let frame = 0
  const onScroll = () => {
    cancelAnimationFrame(frame)
    frame = requestAnimationFrame(() => onScrolled(firstVisible()))
  }

  view.addEventListener('resize', onResize)
  track.addEventListener('scroll', onScroll, { passive: true })
  return {
    step: (direction) => goTo(firstVisible() + direction * perScroll),
    goTo,
    firstVisible,
    destroy() {
      onResize.cancel()
      cancelAnimationFrame(frame)
      view.removeEventListener('resize', onResize)
      track.removeEventListener('scroll', onScroll)
    },
  }
}
