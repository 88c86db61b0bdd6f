import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { createCarousel, type Carousel } from './carousel.js'
import type { HomeContent } from '../content/schema.js'
import { SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'

type StoreExamples = HomeContent['storeExamples']

/** Shop examples in one scrolling row, ordered by category; the tabs jump to a category and follow the scroll. */
export function StoreCarousel({ examples }: { examples: StoreExamples }) {
  const rootRef = useRef<HTMLDivElement>(null)
  const carouselRef = useRef<Carousel | null>(null)
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([])
  const { categories } = examples

  const slides = useMemo(
    () =>
      categories.flatMap((category) =>
        examples.stores.filter((store) => store.categories[0] === category.slug).map((store) => ({ store, category: category.slug })),
      ),
    [categories, examples.stores],
  )
  const firstSlideOf = (slug: string) => slides.findIndex((slide) => slide.category === slug)
  const [active, setActive] = useState(categories[0]?.slug ?? '')

  useEffect(() => {
    // At the end of the row the last category is in view even when it cannot come first.
    const carousel = createCarousel(rootRef.current, (first, atEnd) => {
      const category = (atEnd ? slides.at(-1) : slides[first])?.category
      if (category) setActive(category)
    })
    carouselRef.current = carousel
    return () => carousel.destroy()
  }, [slides])

  const selectTab = (index: number) => {
    const category = categories[(index + categories.length) % categories.length]
    if (!category) return
    setActive(category.slug)
    tabRefs.current[categories.indexOf(category)]?.focus()
    carouselRef.current?.goTo(firstSlideOf(category.slug))
  }

  const onTabKeyDown = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: categories.length - 1 }
    const next = moves[event.key]
    if (next === undefined) return
    event.preventDefault()
    selectTab(next)
  }

  const onTrackKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    event.preventDefault()
    carouselRef.current?.step(event.key === 'ArrowRight' ? 1 : -1)
  }

  return (
    <div className="store-carousel" ref={rootRef}>
      <div className="store-tabs" role="tablist" aria-label="Shop categories">
        {categories.map((category, index) => (
          <button
            key={category.slug}
            ref={(element) => {
              tabRefs.current[index] = element
            }}
            type="button"
            role="tab"
            id={`store-tab-${category.slug}`}
            aria-selected={active === category.slug}
            aria-controls="store-panel"
            tabIndex={active === category.slug ? 0 : -1}
            className="store-tab"
            onClick={() => selectTab(index)}
            onKeyDown={(event) => onTabKeyDown(event, index)}
          >
            {category.name}
          </button>
        ))}
      </div>
      <div className="carousel-frame" id="store-panel" role="tabpanel" aria-labelledby={`store-tab-${active}`}>
        <button type="button" className="carousel-arrow carousel-prev" aria-label="Previous shops" onClick={() => carouselRef.current?.step(-1)}>
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M12.5 4 6.5 10l6 6" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        {/* The shops are the page's own data: left as the server drew them (the script scrolls the row, never redraws it). */}
        <StaticHtml
          as="ul"
          id="store-track"
          className="carousel-track"
          data-carousel-track=""
          aria-label="Shop examples"
          tabIndex={0}
          onKeyDown={onTrackKeyDown}
        >
          {slides.map(({ store, category }) => (
            <li key={store.img} className="store-card" data-category={category}>
              <SiteLink href={store.url} className="store-link">
                <img src={store.img} width={store.width} height={store.height} alt={`${store.name}: ${store.title}`} loading="lazy" decoding="async" />
                <span className="store-name">{store.name}</span>
                <span className="store-title">{store.title}</span>
              </SiteLink>
            </li>
          ))}
        </StaticHtml>
        <button type="button" className="carousel-arrow carousel-next" aria-label="Next shops" onClick={() => carouselRef.current?.step(1)}>
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="m7.5 4 6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      </div>
    </div>
  )
}
