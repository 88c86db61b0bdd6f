/** Scrolling behaviour of the site's carousels, free of any framework. */

/** Above this window width a carousel moves three slides per scroll, otherwise one. */
const CAROUSEL_WIDE_MIN_WIDTH = 1230
const CAROUSEL_WIDE_STEP = 3
const CAROUSEL_RESIZE_DEBOUNCE_MS = 500
/** Without the `scrollend` event, a scroll counts as finished after this long without movement. */
const SCROLL_SETTLE_MS = 150

function slidesPerScroll(windowWidth: number): number {
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
export function createCarousel(
  root: HTMLElement | null,
  onSettled: (firstVisible: number, atEnd: boolean) => void = () => {},
): Carousel {
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

  // Reported once a scroll comes to rest, so a long smooth scroll does not flick through
  // every slide on its way.
  const report = () => onSettled(firstVisible(), track.scrollLeft + track.clientWidth >= track.scrollWidth - 2)
  const settle = debounce(report, SCROLL_SETTLE_MS)
  const hasScrollEnd = 'onscrollend' in view
  const onScroll = hasScrollEnd ? report : settle

  view.addEventListener('resize', onResize)
  track.addEventListener(hasScrollEnd ? 'scrollend' : 'scroll', onScroll, { passive: true })
  return {
    step: (direction) => goTo(firstVisible() + direction * perScroll),
    goTo,
    firstVisible,
    destroy() {
      onResize.cancel()
      settle.cancel()
      view.removeEventListener('resize', onResize)
      track.removeEventListener(hasScrollEnd ? 'scrollend' : 'scroll', onScroll)
    },
  }
}
