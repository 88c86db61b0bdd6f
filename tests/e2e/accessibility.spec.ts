/**
 * axe-core on every kind of page, after hydration, in the states a visitor can put it in: menus,
 * dialogs, form errors and generator results. The templates drawn inside the preview frames are
 * checked elsewhere; here only the page around them is.
 */
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import type { WidgetGroupsFile, WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { expectNoAxeViolations } from './axe.js'
import { expect, gotoHydrated, readData, sampleContent, test } from './fixtures.js'

const { blogTheme, blogPost, helpSection, helpArticle, widgetsSection, widgetsSub, useCase } = sampleContent

const { groups } = readData<WidgetGroupsFile>('generated/widget-groups.json')
const widgetTemplates = readData<WidgetTemplate[]>('generated/widget-templates.json')
const forms = groups.find((group) => group.slug === 'forms')!
const plainGroup = groups.find((group) => !group.hidden && group.subs.length === 0 && !group.special)!
const seasonal = groups.find((group) => !group.hidden && group.special)!
const widget = widgetTemplates.find((template) => template.group === 'forms')!
const emailTemplates = readData<{ templates: { id: string; groups: string[] }[] }>('generated/email-templates.json').templates
const emailGroup = 'welcome-email-templates'
const email = emailTemplates.find((template) => template.groups.includes(emailGroup))!

test.use({ axe: true })

/** The page around the preview frames; what the frames show is not this spec's concern. */
const expectAccessible = (page: Page) => expectNoAxeViolations(page, { frames: false })

const dialog = (page: Page) => page.getByRole('dialog')
const submit = (page: Page) => page.locator('form.generator-form button[type="submit"]')
const result = (page: Page) => page.locator('.generator-result')

test.describe('the check itself', () => {
  test('names the rule, the selector and the markup of what breaks it, inside frames unless told not to look', async ({ page }) => {
    await gotoHydrated(page, '/about/')
    await page.evaluate(() => {
      const image = document.createElement('img')
      image.src = '/favicon.svg'
      image.id = 'unlabelled-image'
      document.querySelector('main')!.append(image)
    })
    const failure = await expectNoAxeViolations(page, { frames: false }).then(
      () => 'no failure',
      (error: Error) => error.message,
    )
    expect(failure).toContain('image-alt (critical): Images must have alternative text')
    expect(failure).toContain('#unlabelled-image')
    expect(failure).toContain('<img src="/favicon.svg" id="unlabelled-image">')

    await page.evaluate(() => {
      document.getElementById('unlabelled-image')!.remove()
      const frame = document.createElement('iframe')
      frame.title = 'A frame with an image lacking its text'
      frame.srcdoc = '<!doctype html><html lang="en"><title>Inner</title><main><img src="/favicon.svg"></main></html>'
      document.querySelector('main')!.append(frame)
      return new Promise((resolve) => frame.addEventListener('load', resolve))
    })
    await expect(expectNoAxeViolations(page)).rejects.toThrow(/image-alt/)
    await expectNoAxeViolations(page, { frames: false })
  })
})

test.describe('pages as they load', () => {
  const pages: Record<string, string> = {
    home: '/',
    pricing: '/pricing/',
    about: '/about/',
    privacy: '/privacy/',
    'email templates': '/email-templates/',
    'blog index': '/blog/',
    'blog theme': `/blog/${blogTheme.slug}/`,
    'blog post': `/blog/${blogTheme.slug}/${blogPost}/`,
    'help center': '/help/',
    'help section': `/help/${helpSection.slug}/`,
    'help widgets sub-section': `/help/${widgetsSection.slug}/${widgetsSub.slug}/`,
    'help article': `/help/${helpSection.slug}/${helpArticle}/`,
    'use cases': '/usecase/',
    'use case': `/usecase/${useCase.slug}/`,
    'widget gallery': '/p/',
    'widget group': `/p/${plainGroup.slug}/`,
    'widget group with categories': `/p/${forms.slug}/${forms.subs[0]!.slug}/`,
    'seasonal widget group': `/p/${seasonal.slug}/`,
    'email gallery': '/e/',
    'email group': `/e/${emailGroup}/`,
    'log-in': '/login/',
    'sign-up': '/start/',
    'password reset': '/reset/',
    'new password, without a valid link': '/reset/new/',
    'subject line generator': '/ai-subject-line-generator/',
    'scrolling text generator': '/email-scrolling-text-gif-generator/',
    'text image generator': '/calligraphy-text-generator/',
    'countdown generator': '/email-countdown-timer-generator/',
    'slideshow generator': '/image-slideshow-gif-generator/',
    'holiday calendar': '/email-marketing-holiday-calendar/',
  }
  for (const [kind, url] of Object.entries(pages)) {
    test(`${kind} ${url}`, async ({ page }) => {
      await gotoHydrated(page, url)
      await expectAccessible(page)
    })
  }

  for (const url of [`/widget-preview/?id=${widget.id}`, `/email-preview/?id=${email.id}`]) {
    test(`standalone preview ${url}`, async ({ page }) => {
      // A bare page, without the site header that gotoHydrated waits for.
      await page.goto(url)
      await expect(page.getByRole('button', { name: 'Use this template' })).toBeEnabled()
      await expectAccessible(page)
    })
  }

  test('the not-found page', async ({ page, consoleGuard }) => {
    // Chromium reports the document's own 404 status on the console; that is the expected status.
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/)
    await gotoHydrated(page, '/no-such-page-here/', 404)
    await expectAccessible(page)
  })
})

test.describe('pages in the states a visitor puts them in', () => {
  test('pricing, yearly and in dollars', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await page.getByRole('radio', { name: 'Yearly' }).check()
    await page.getByRole('radio', { name: 'USD' }).check()
    await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked()
    await expectAccessible(page)
  })

  test('the FAQ with an answer open', async ({ page }) => {
    await gotoHydrated(page, '/faq/')
    await expectAccessible(page)
    await page.locator('.faq-item summary').first().click()
    await expect(page.locator('.faq-item').first()).toHaveAttribute('open', '')
    await expectAccessible(page)
  })

  test('a menu of the header open', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('button', { name: 'Solutions' }).click()
    await expect(page.getByRole('button', { name: 'Solutions' })).toHaveAttribute('aria-expanded', 'true')
    await expectAccessible(page)
  })

  test('the log-in and sign-up overlays of the header', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await expect(page.getByRole('dialog', { name: 'Log in to Poplift' })).toBeVisible()
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get started free' }).click()
    await expect(page.getByRole('dialog', { name: 'Create your free account' })).toBeVisible()
    await expectAccessible(page)
  })

  for (const [kind, url, button] of [
    ['log-in', '/login/', 'Log in'],
    ['sign-up', '/start/', 'Create account'],
    ['password reset', '/reset/', 'Send reset link'],
  ] as const) {
    test(`the ${kind} form after an empty submit`, async ({ page }) => {
      await gotoHydrated(page, url)
      await page.locator('main form.auth-form').getByRole('button', { name: button }).click()
      await expect(page.locator('main form.auth-form').getByRole('alert')).toHaveText('Email is required')
      await expectAccessible(page)
    })
  }

  for (const [kind, url, button] of [
    ['a widget', `/p/${widget.id}`, 'Take this template'],
    ['an email', `/e/${email.id}`, 'Customize this email'],
  ] as const) {
    test(`${kind} template: its preview, then its sign-up panel`, async ({ page }) => {
      await gotoHydrated(page, url)
      await expect(dialog(page)).toBeVisible()
      await expectAccessible(page)
      await dialog(page).getByRole('button', { name: button }).click()
      await expect(dialog(page).getByRole('heading', { name: 'Create your free account' })).toBeVisible()
      await expectAccessible(page)
    })
  }
})

test.describe('generators with a result', () => {
  test('the video popup and the other tools shown', async ({ page }) => {
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    await page.getByRole('button', { name: 'Show more tools' }).click()
    await page.getByRole('button', { name: 'See how it works' }).click()
    await expect(page.getByRole('dialog', { name: 'How the countdown timer generator works' })).toBeVisible()
    await expectAccessible(page)
  })

  test('subject lines', async ({ page }) => {
    await gotoHydrated(page, '/ai-subject-line-generator/')
    await page.getByLabel('What is your email about?').fill('Spring sandals 25% off')
    await submit(page).click()
    await expect(page.locator('.subject-row').first()).toBeVisible()
    await expectAccessible(page)
  })

  test('scrolling text', async ({ page }) => {
    await gotoHydrated(page, '/email-scrolling-text-gif-generator/')
    await submit(page).click()
    await expect(result(page).locator('img.result-image')).toBeVisible({ timeout: 20_000 })
    await expectAccessible(page)
  })

  test('text image', async ({ page }) => {
    await gotoHydrated(page, '/calligraphy-text-generator/')
    await page.getByLabel('Your text', { exact: true }).fill('Thank you')
    await submit(page).click()
    // The cards below the fold load their images as they scroll into view.
    await expect(page.locator('.text-image-card').first()).toHaveClass(/is-ok/, { timeout: 20_000 })
    await expectAccessible(page)
  })

  test('countdown', async ({ page }) => {
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    await page.locator('.quick-picks button').first().click()
    await submit(page).click()
    await expect(result(page).locator('img.result-image')).toBeVisible({ timeout: 20_000 })
    await expectAccessible(page)
  })

  test('slideshow', async ({ page }) => {
    test.slow()
    await gotoHydrated(page, '/image-slideshow-gif-generator/')
    const photo = async (name: string, colour: string) => ({
      name,
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 48, height: 48, channels: 3, background: colour } }).png().toBuffer(),
    })
    await page.locator('#slideshow-files').setInputFiles([await photo('red.png', '#ff0000'), await photo('blue.png', '#0000ff')])
    await expect(page.locator('.upload-card-handle')).toHaveCount(2)
    await expect(page.locator('.upload-card.is-loading')).toHaveCount(0)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    await expect(result(page).locator('img.result-image')).toBeVisible({ timeout: 30_000 })
    await expectAccessible(page)
  })
})

test.describe('on a phone, 375 px wide, with the menu open', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })

  for (const url of ['/', '/pricing/', `/p/${forms.slug}/${forms.subs[0]!.slug}/`, '/email-countdown-timer-generator/']) {
    test(url, async ({ page }) => {
      await gotoHydrated(page, url)
      await expectAccessible(page)
      await page.locator('.nav-toggle').tap()
      await expect(page.locator('.nav-toggle')).toHaveAttribute('aria-expanded', 'true')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Solutions' }).tap()
      await expectAccessible(page)
    })
  }
})

/**
 * WCAG 1.4.11 asks 3:1 of what identifies a control or its state against the colours beside it;
 * axe has no rule for it. Measures, for each visible element matching `selector`, the border that
 * marks out a field, or the focus ring once it has the focus, against the background around it, and
 * describes those under 3:1.
 */
async function underThreeToOne(page: Page, selector: string, part: 'border' | 'focus ring'): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements, part) => {
    type Colour = { r: number; g: number; b: number; a: number }
    const parse = (value: string): Colour => {
      const [r = 0, g = 0, b = 0, a = 1] = (/rgba?\(([^)]+)\)/.exec(value)?.[1] ?? '0 0 0 0').split(/[\s,/]+/).filter(Boolean).map(Number)
      return { r, g, b, a }
    }
    const over = (top: Colour, bottom: Colour): Colour => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    })
    const luminance = ({ r, g, b }: Colour) => {
      const channel = (value: number) => (value / 255 <= 0.03928 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4)
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    const ratio = (one: Colour, other: Colour) => {
      const [light, dark] = [luminance(one), luminance(other)].sort((x, y) => y - x) as [number, number]
      return (light + 0.05) / (dark + 0.05)
    }
    /** The colour an element is painted on: its own background and its ancestors', over white. */
    const backdrop = (element: Element | null): Colour => {
      const layers: Colour[] = []
      for (let node = element; node; node = node.parentElement) {
        const colour = parse(getComputedStyle(node).backgroundColor)
        if (colour.a > 0) layers.unshift(colour)
        if (colour.a === 1) break
      }
      return layers.reduce((below, layer) => over(layer, below), { r: 255, g: 255, b: 255, a: 1 })
    }
    const low: string[] = []
    for (const element of elements as HTMLElement[]) {
      if (!element.checkVisibility()) continue
      const around = backdrop(element.parentElement)
      let colour: Colour
      if (part === 'focus ring') {
        element.focus()
        const style = getComputedStyle(element)
        colour = style.outlineStyle === 'none' ? around : over(parse(style.outlineColor), around)
      } else {
        const own = backdrop(element)
        if (ratio(own, around) >= 3) continue
        colour = over(parse(getComputedStyle(element).borderBottomColor), own)
      }
      const contrast = ratio(colour, around)
      if (contrast < 3) low.push(`${element.outerHTML.slice(0, 120)}: ${part} ${contrast.toFixed(2)}:1`)
    }
    return low
  }, part)
}

test.describe('non-text contrast', () => {
  const fields = 'main input:not([type="checkbox"], [type="radio"], [type="range"], [type="file"], [type="hidden"]), main select, main textarea'

  for (const url of ['/login/', '/p/forms/', '/email-countdown-timer-generator/', '/calligraphy-text-generator/', '/ai-subject-line-generator/', '/image-slideshow-gif-generator/']) {
    test(`the fields of ${url} are outlined, and ringed when focused, at 3:1 or more`, async ({ page }) => {
      await gotoHydrated(page, url)
      expect(await underThreeToOne(page, fields, 'border')).toEqual([])
      expect(await underThreeToOne(page, fields, 'focus ring')).toEqual([])
    })
  }

  test('the focus ring of the links on the dark footer stands out from it', async ({ page }) => {
    await gotoHydrated(page, '/')
    expect(await underThreeToOne(page, '.site-footer a', 'focus ring')).toEqual([])
  })
})
