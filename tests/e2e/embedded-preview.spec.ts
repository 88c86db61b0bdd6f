import type { Frame, Page } from '@playwright/test'
import type { WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { expect, gotoHydrated, readData, test } from './fixtures.js'

const widgets = readData<WidgetTemplate[]>('generated/widget-templates.json').filter((template) => template.group === 'forms')
const emails = readData<{ templates: Array<{ id: string; name: string; groups: string[] }> }>('generated/email-templates.json').templates.filter((template) =>
  template.groups.includes('welcome-email-templates'),
)

/** The standalone previews, as another product embeds them: each kind, its ids and what choosing sends. */
const kinds = [
  { kind: 'widget', path: '/widget-preview/', collection: widgets.slice(0, 4), message: (id: string) => ({ event: 'select', widgetId: id }), clone: 'clone' },
  { kind: 'email', path: '/email-preview/', collection: emails.slice(0, 4), message: (id: string) => ({ event: 'select', emailId: id }), clone: 'clone-email' },
] as const

/** A bare page (no site header) is hydrated once React has attached its props to the choose button. */
async function waitForBareHydration(target: Page | Frame): Promise<void> {
  await target.waitForFunction(() => {
    const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Use this template')
    return button !== undefined && Object.keys(button).some((key) => key.startsWith('__reactProps$'))
  })
}

for (const { kind, path, collection, message, clone } of kinds) {
  test.describe(`embedded ${kind} preview`, () => {
    const template = collection[1]!
    const ids = collection.map((item) => item.id).join(',')

    test(`choosing posts the ${kind} id to a parent on the site’s origin`, async ({ page }) => {
      await gotoHydrated(page, '/')
      const received = page.evaluate(
        () =>
          new Promise((resolve) => {
            window.addEventListener('message', (event) => {
              if (event.data?.event === 'select') resolve({ data: event.data, origin: event.origin })
            })
          }),
      )
      await page.evaluate((src) => {
        const frame = document.createElement('iframe')
        frame.id = 'embedded'
        frame.src = src
        frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;z-index:99999;background:#fff'
        document.body.append(frame)
      }, `${path}?id=${template.id}`)
      const embedded = page.frameLocator('#embedded')
      await expect(embedded.getByRole('heading', { name: template.name })).toBeVisible()
      const frame = page.frames().find((candidate) => candidate.url().includes(path))!
      await waitForBareHydration(frame)
      await embedded.getByRole('button', { name: 'Use this template' }).click()
      expect(await received).toEqual({ data: message(template.id), origin: new URL(page.url()).origin })
    })

    test('outside a frame, the collection sets previous and next, and choosing goes to the clone link', async ({ page }) => {
      await page.goto(`${path}?id=${template.id}&collection=${ids}`)
      await waitForBareHydration(page)
      await expect(page.locator('.preview-pager span')).toHaveText(`2 / ${collection.length}`)
      await page.getByRole('button', { name: 'Use this template' }).click()
      await expect(page).toHaveURL(new RegExp(`/start/\\?next=%2Fapp%2F${clone}%2F${template.id}`))
    })
  })
}
