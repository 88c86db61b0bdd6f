import type { Page } from '@playwright/test'
import { expect, gotoHydrated, isSameDocument, markDocument, readData, readFrontMatter, sampleContent, test } from './fixtures.js'

const { blogTheme, blogPost, helpSection, helpArticle, widgetsSection, widgetsSub, widgetsArticle, useCase } = sampleContent

const title = (relativePath: string) => String(readFrontMatter(relativePath).title)

/** One page of every kind the router draws, with the heading it must show, grouped by section of the site. */
const pageKinds: Record<string, { kind: string; url: string; heading: string | RegExp }[]> = {
  'the home, pricing, FAQ and content pages': [
    { kind: 'home', url: '/', heading: readData<{ hero: { title: string } }>('home.json').hero.title },
    { kind: 'pricing', url: '/pricing/', heading: /plans/i },
    { kind: 'FAQ', url: '/faq/', heading: 'Frequently asked questions' },
    { kind: 'about', url: '/about/', heading: title('content/pages/about.md') },
    { kind: 'privacy', url: '/privacy/', heading: title('content/pages/privacy.md') },
    { kind: 'terms', url: '/terms/', heading: title('content/pages/terms.md') },
    { kind: 'anti-spam policy', url: '/anti-spam-policy/', heading: title('content/pages/anti-spam-policy.md') },
    { kind: 'Aurora (no trailing slash)', url: '/aurora', heading: title('content/pages/aurora.md') },
    { kind: 'Shopify apps (no trailing slash)', url: '/shopify-apps', heading: title('content/pages/shopify-apps.md') },
    { kind: 'email templates', url: '/email-templates/', heading: title('content/pages/email-templates.md') },
  ],
  'the blog index, a theme and a post': [
    { kind: 'blog index', url: '/blog/', heading: 'Ideas that grow lists and sales' },
    { kind: 'blog theme', url: `/blog/${blogTheme.slug}/`, heading: blogTheme.name },
    { kind: 'blog post', url: `/blog/${blogTheme.slug}/${blogPost}/`, heading: title(`content/blog/${blogTheme.slug}/${blogPost}.md`) },
  ],
  'the help center, its sections and articles': [
    { kind: 'help center', url: '/help/', heading: 'How can we help?' },
    { kind: 'help section', url: `/help/${helpSection.slug}/`, heading: helpSection.name },
    { kind: 'help widgets sub-section', url: `/help/${widgetsSection.slug}/${widgetsSub.slug}/`, heading: widgetsSub.name },
    { kind: 'help article', url: `/help/${helpSection.slug}/${helpArticle}/`, heading: title(`content/help/${helpSection.slug}/${helpArticle}.md`) },
    {
      kind: 'help widgets article',
      url: `/help/${widgetsSection.slug}/${widgetsSub.slug}/${widgetsArticle}/`,
      heading: title(`content/help/${widgetsSection.slug}/${widgetsSub.slug}/${widgetsArticle}.md`),
    },
  ],
  'the use-case index and a use case': [
    { kind: 'use cases', url: '/usecase/', heading: 'What you can do with Poplift' },
    { kind: 'use case', url: `/usecase/${useCase.slug}/`, heading: title(`content/usecase/${useCase.slug}.md`) },
  ],
}

/** The Solutions menu opens on click only once React has taken over the server's HTML. */
async function expectMenuToWork(page: Page) {
  const solutions = page.getByRole('button', { name: 'Solutions' })
  await solutions.click()
  await expect(solutions).toHaveAttribute('aria-expanded', 'true')
}

test.describe('every page renders on the server and hydrates without console errors', () => {
  for (const [group, kinds] of Object.entries(pageKinds)) {
    test(`${group} answer 200, show their heading and hydrate`, async ({ page }) => {
      for (const { kind, url, heading } of kinds) {
        await test.step(`${kind} page ${url}`, async () => {
          await gotoHydrated(page, url)
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
          await expectMenuToWork(page)
        })
      }
    })
  }

  test('an unknown path answers 404 with the not-found page, which hydrates too', async ({ page, consoleGuard }) => {
    // Chromium reports the document's own 404 status on the console; that is the expected status.
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/)
    await gotoHydrated(page, '/no-such-page-here/', 404)
    await expect(page).toHaveTitle(/Page not found/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We can’t find that page')
    await expectMenuToWork(page)
  })
})

test.describe('client-side navigation', () => {
  test('the Pricing link of the header opens /pricing/ without reloading the document and updates the title', async ({ page }) => {
    await gotoHydrated(page, '/')
    await markDocument(page)
    const mainNav = page.getByRole('navigation', { name: 'Main' })
    // Pricing is a plain link, not a menu.
    await expect(mainNav.getByRole('button', { name: 'Pricing' })).toHaveCount(0)
    await mainNav.getByRole('link', { name: 'Pricing', exact: true }).click()
    await expect(page).toHaveURL('/pricing/')
    await expect(page).toHaveTitle('Pricing and plans | Poplift')
    await expect(page.getByTestId('price-4')).toBeVisible()
    expect(await isSameDocument(page)).toBe(true)
  })

  test('Back after a client-side navigation returns to the home page in the same document', async ({ page }) => {
    await gotoHydrated(page, '/')
    const homeTitle = await page.title()
    await markDocument(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing', exact: true }).click()
    await expect(page).toHaveTitle('Pricing and plans | Poplift')
    await page.goBack()
    await expect(page).toHaveURL('/')
    await expect(page).toHaveTitle(homeTitle)
    await expect(page.locator('#store-track')).toBeVisible()
    expect(await isSameDocument(page)).toBe(true)
  })

  test('from the not-found page, pages the browser has not yet seen open in the same document, and Back and Forward find each again', async ({ page, consoleGuard }) => {
    // The document's own 404 status, and the not-found page's data asked again on Back.
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/)
    await gotoHydrated(page, '/no-such-page-here/', 404)
    await markDocument(page)
    const mainNav = page.getByRole('navigation', { name: 'Main' })
    // The not-found page's catch-all matches every path: the page behind the link is drawn all the same.
    await mainNav.getByRole('link', { name: 'Pricing', exact: true }).click()
    await expect(page).toHaveURL('/pricing/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple plans that grow with your shop')
    await page.goBack()
    await expect(page).toHaveURL('/no-such-page-here/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We can’t find that page')
    await page.goForward()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple plans that grow with your shop')
    await page.getByRole('link', { name: 'Poplift home' }).click()
    await expect(page).toHaveURL('/')
    await expect(page.locator('#store-track')).toBeVisible()
    expect(await isSameDocument(page)).toBe(true)
  })

  test('an internal link inside Markdown content navigates without reloading the document', async ({ page }) => {
    const post = `/blog/${blogTheme.slug}/${blogPost}/`
    await gotoHydrated(page, post)
    await markDocument(page)
    const link = page.locator('main .prose a[href^="/blog/"], main .prose a[href^="/usecase/"]').first()
    const href = await link.getAttribute('href')
    expect(href, `${post} links to another page of the site`).toBeTruthy()
    await link.click()
    await expect(page).toHaveURL(href!)
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(title(`content/blog/${blogTheme.slug}/${blogPost}.md`))
    expect(await isSameDocument(page)).toBe(true)
  })
})
