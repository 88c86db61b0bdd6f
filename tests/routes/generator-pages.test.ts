import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'node-html-parser'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { exampleFile, loadGeneratorsFile } from '../../server/generators/content.js'
import { daysAhead, localIsoDate } from '../../shared/generators/countdown/countdown.js'
import { readPageState } from '../../shared/router-state.js'
import { HYDRATION_ELEMENT_ID } from '../../shared/site.js'
import { ROOT, testApp } from './app.js'

const app = testApp()
const generators = loadGeneratorsFile(path.join(ROOT, 'data'))

async function page(pathname: string) {
  const response = await request(app).get(pathname).expect(200)
  expect(response.headers['content-type']).toMatch(/text\/html/)
  return parse(response.text)
}

const PAGES = [
  { path: '/email-countdown-timer-generator/', name: 'countdown', form: 'Countdown settings' },
  { path: '/email-scrolling-text-gif-generator/', name: 'scrolling-text', form: 'Scrolling text settings' },
  { path: '/calligraphy-text-generator/', name: 'text-image', form: 'Text image settings' },
]

describe('generator pages', () => {
  for (const { path: pathname, name, form } of PAGES) {
    it(`${pathname} shows its form, examples, explanation, how-to, FAQ and the other generators`, async () => {
      const copy = generators.pages[name]!
      const root = await page(pathname)
      expect(root.querySelector('h1')?.textContent).toBe(copy.heading)
      expect(root.querySelector('title')?.textContent).toContain(copy.title)
      expect(root.querySelector(`form[aria-label="${form}"]`)).not.toBeNull()
      expect(root.querySelector('form button[type="submit"]')?.textContent).toBe(copy.submit.idle)
      const examples = root.querySelectorAll('.generator-examples img')
      expect(examples).toHaveLength(copy.examples.items.length)
      expect(root.querySelector('#how-to-title')?.textContent).toBe(copy.howTo.title)
      expect(root.querySelectorAll('.generator-faq summary').map((summary) => summary.textContent)).toEqual(copy.faq.items.map((item) => item.q))
      const others = root.querySelectorAll('.generator-cards h3').map((title) => title.textContent)
      expect(others).toEqual(generators.cards.filter((card) => card.name !== name).map((card) => card.title))
    })
  }

  it('every drawn example has its image, named by its request', () => {
    for (const copy of Object.values(generators.pages)) {
      for (const example of copy.examples.items) {
        if (example.request.method !== 'POST') continue
        expect(fs.existsSync(path.join(ROOT, 'public', 'examples', exampleFile(example.request))), `${example.caption}: run npm run examples`).toBe(true)
      }
    }
  })

  it('every page’s video and poster exist, and the video is served as WebM', async () => {
    const videos = Object.values(generators.pages).flatMap((copy) => (copy.video ? [copy.video] : []))
    expect(videos.length).toBe(5)
    for (const video of videos) {
      for (const file of [video.src, video.poster!]) expect(fs.existsSync(path.join(ROOT, 'public', file)), `${file}: run npm run videos`).toBe(true)
    }
    const response = await request(app).get(videos[0]!.src).expect(200)
    expect(response.headers['content-type']).toBe('video/webm')
  })

  it('the examples drawn beforehand are served, cached for a day', async () => {
    const example = generators.pages.countdown!.examples.items.find((item) => item.request.method === 'POST')!
    const response = await request(app).get(`/examples/${exampleFile(example.request)}`).expect(200)
    expect(response.headers['content-type']).toBe('image/gif')
    expect(response.headers['cache-control']).toContain('max-age=86400')
  })

  it('the scrolling text form opens with the settings of a shared link', async () => {
    const root = await page('/email-scrolling-text-gif-generator/?text=Hello%20there&size=40&direction=right&background=112233')
    expect(root.querySelector('input[name="text"]')?.getAttribute('value')).toBe('Hello there')
    expect(root.querySelector('input[name="size"]')?.getAttribute('value')).toBe('40')
    expect(root.querySelector('input[name="direction"][value="right"]')?.hasAttribute('checked')).toBe(true)
    expect(root.querySelector('input[name="background"]')?.getAttribute('value')).toBe('#112233')
  })

  it('a shared link with bad settings still opens the generator with defaults', async () => {
    const root = await page('/email-scrolling-text-gif-generator/?size=abc&font=%3Cscript%3E&color=red')
    expect(root.querySelector('input[name="size"]')?.getAttribute('value')).toBe('24')
    expect(root.querySelector('select[name="font"] option[selected]')?.textContent).toBe('Roboto')
  })

  it('the text image page draws one card per font of the chosen group, through the image service', async () => {
    const root = await page('/calligraphy-text-generator/?group=gothic&text=Grand%20Opening')
    const cards = root.querySelectorAll('.text-image-card img')
    const fonts = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'fonts.json'), 'utf8')).fonts.filter((font: { groups: string[] }) => font.groups.includes('gothic'))
    expect(cards).toHaveLength(fonts.length)
    const src = new URL(cards[0]!.getAttribute('src')!, 'http://x')
    expect(src.pathname).toBe('/giffer/text/preview')
    expect(src.searchParams.get('text')).toBe('Grand Opening')
    expect(src.searchParams.get('font')).toBe(fonts[0].id)
    expect(cards[0]!.getAttribute('loading')).toBe('eager')
    expect(cards.at(-1)!.getAttribute('loading')).toBe('lazy')
  })
})

describe('holiday calendar', () => {
  it('lists the holidays nearest first, each within 99 days opening the countdown set to it', async () => {
    const root = await page('/email-marketing-holiday-calendar/')
    const rows = root.querySelectorAll('.holiday-table tbody tr')
    expect(rows.length).toBeGreaterThan(10)
    const dates = rows.map((row) => row.querySelector('time')!.getAttribute('datetime')!)
    expect([...dates].sort()).toEqual(dates)
    const link = rows[0]!.querySelector('a')!
    expect(link.getAttribute('href')).toBe(`/email-countdown-timer-generator/?date=${dates[0]}`)
  })

  it("counts from the site's own day, so the list and the quick picks follow its clock", async () => {
    const autumn = testApp({ PAGE_CACHE_ENTRIES: '0' }, { now: () => new Date('2026-10-20T12:00:00Z') })
    const calendar = parse((await request(autumn).get('/email-marketing-holiday-calendar/').expect(200)).text)
    const first = calendar.querySelector('.holiday-table tbody tr')!
    expect(first.textContent).toContain('Halloween')
    expect(first.querySelector('time')!.getAttribute('datetime')).toBe('2026-10-31')
    const countdown = parse((await request(autumn).get('/email-countdown-timer-generator/').expect(200)).text)
    expect(countdown.querySelector('.quick-picks button')!.textContent).toContain('Halloween')
    // The page says which day its picks count from: a visitor on that day needs no list of their own.
    const state = readPageState(countdown.getElementById(HYDRATION_ELEMENT_ID)!.textContent)
    const data = state.loaderData!['countdown-generator'] as { quickPicks: { value: string; daysAhead: number }[]; quickPicksFrom: string }
    // The process's own day (2026-10-20 in most zones, the 21st east of UTC+12).
    const now = new Date('2026-10-20T12:00:00Z')
    expect(data.quickPicksFrom).toBe(localIsoDate(now))
    expect(data.quickPicks[0]).toMatchObject({ value: '2026-10-31', daysAhead: daysAhead('2026-10-31', now) })
  })

  it('the countdown opens set to the holiday of a calendar link', async () => {
    const root = await page('/email-marketing-holiday-calendar/')
    const href = root.querySelector('.holiday-table tbody tr a')!.getAttribute('href')!
    const countdown = await page(href)
    expect(countdown.querySelector('.quick-picks button[aria-pressed="true"]')).not.toBeNull()
  })
})

describe('a saved timer edit page', () => {
  it('is one page for every timer, kept out of search, holding nothing of the timer: the browser loads it with the key in the fragment', async () => {
    const response = await request(app).get('/email-countdown-timer-generator/timers/abcdefghijklmnop/').expect(200)
    const root = parse(response.text)
    expect(root.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex')
    expect(root.querySelector('h1')?.textContent).toBe('Your saved timer')
    expect(root.querySelector('main [role="status"]')?.textContent).toBe('Loading the timer…')
    expect(response.headers['cache-control']).not.toContain('private')
  })

  it('answers 404 for an address whose id cannot be a timer', async () => {
    await request(app).get('/email-countdown-timer-generator/timers/short/').expect(404)
    await request(app).get('/email-countdown-timer-generator/timers/has%20space%20in%20it/').expect(404)
  })
})
