import type { Page } from '@playwright/test'
import { expect, readData, test } from './fixtures.js'

interface TemplateData {
  id: string
  name: string
  family: string
  layout: string
  launcher?: unknown
  dark?: unknown
  copy: { headline: string }
  success: { headline: string; code?: string }
  refusal?: { headline: string }
  fields: { type: string }[]
}

const templates = readData<TemplateData[]>('generated/widget-templates.json')
const byId = (id: string) => templates.find((template) => template.id === id)!
const welcome = byId('wt8mybhg')
const rating = templates.find((template) => template.fields.length === 1 && template.fields[0]!.type === 'rating')!
const ageGate = templates.find((template) => template.family === 'age' && template.refusal && template.fields.length === 0)!
const themed = templates.find((template) => template.dark && !template.name.includes('Custom') && template.id !== welcome.id)!

const widget = (page: Page) => page.locator('[data-plw]')

test.describe('live widget preview', () => {
  test('fills, validates, submits and closes a widget', async ({ page }) => {
    await page.goto(`/app/preview/${welcome.id}`)
    const box = page.getByRole('dialog', { name: welcome.copy.headline })
    await expect(box).toBeVisible()
    const email = box.getByLabel('Email')
    const submit = box.getByRole('button', { name: 'Get my 10%' })

    await submit.click()
    await expect(box.getByText('Email is required')).toBeVisible()
    await expect(email).toHaveAttribute('aria-invalid', 'true')
    await expect(email).toBeFocused()

    await email.fill('not-an-email')
    await expect(box.getByText('Email is required')).toBeHidden()
    await submit.click()
    await expect(box.getByText('Enter a valid email address')).toBeVisible()

    await email.fill('alex@example.com')
    await submit.click()
    const success = box.getByRole('status').filter({ hasText: welcome.success.headline })
    await expect(success).toBeVisible()
    await expect(success.locator('code')).toHaveText('HELLO10')
    await expect(email).toBeHidden()

    await box.getByRole('button', { name: 'Close' }).click()
    await expect(box).toBeHidden()
    const replay = page.getByRole('button', { name: 'Show the widget again' })
    await expect(replay).toBeVisible()
    await replay.click()
    await expect(box).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(box).toBeHidden()
  })

  test('a modal takes the focus when it opens (its first field, or the dialog itself without fields) and gives it back when it closes', async ({ page }) => {
    const modal = templates.find((template) => template.layout === 'modal' && template.fields[0]?.type === 'email' && !template.launcher)!
    await page.goto(`/app/preview/${modal.id}`)
    const box = page.getByRole('dialog', { name: modal.copy.headline })
    await expect(box.getByLabel('Email')).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    await expect(box.locator(':focus')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Show the widget again' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(box.getByLabel('Email')).toBeFocused()

    const gate = templates.find((template) => template.family === 'age' && template.fields.length === 0 && template.layout === 'modal')!
    await page.goto(`/app/preview/${gate.id}`)
    const dialog = page.getByRole('dialog', { name: gate.copy.headline })
    await expect(dialog).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(dialog.locator(':focus')).toHaveCount(1)
  })

  test('asks for a rating before sending one', async ({ page }) => {
    await page.goto(`/app/preview/${rating.id}`)
    const form = widget(page)
    await form.locator('button[type=submit]').click()
    await expect(form.getByText('Choose a rating')).toBeVisible()
    await form.locator('label[title="4 of 5"]').click()
    await expect(form.getByText('Choose a rating')).toBeHidden()
    await form.locator('button[type=submit]').click()
    await expect(form.getByText(rating.success.headline)).toBeVisible()
  })

  test('an age gate refuses a visitor who says no', async ({ page }) => {
    await page.goto(`/app/preview/${ageGate.id}`)
    await widget(page).locator('[data-plw-refuse]').click()
    await expect(widget(page).getByText(ageGate.refusal!.headline)).toBeVisible()
  })

  test('on its template page the preview runs sandboxed, in an origin of its own, and still validates, submits and copies its code', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto(`/p/${welcome.id}`)
    await expect(page.locator('iframe.preview-frame')).toHaveAttribute('sandbox', 'allow-scripts allow-forms')
    const frame = page.frameLocator('iframe.preview-frame')
    const box = frame.getByRole('dialog', { name: welcome.copy.headline })
    await expect(box).toBeVisible()
    expect(await frame.locator('html').evaluate(() => [self.origin, (() => { try { return document.cookie } catch { return 'refused' } })()])).toEqual(['null', 'refused'])

    await box.getByRole('button', { name: 'Get my 10%' }).click()
    await expect(box.getByText('Email is required')).toBeVisible()
    await box.getByLabel('Email').fill('alex@example.com')
    await box.getByRole('button', { name: 'Get my 10%' }).click()
    const success = box.getByRole('status').filter({ hasText: welcome.success.headline })
    await expect(success).toBeVisible()
    await success.getByRole('button', { name: 'Copy' }).click()
    await expect(success.getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('HELLO10')
  })

  test('follows navigate messages from the embedding page, without adding history', async ({ page }) => {
    await page.goto('/')
    await page.evaluate((src) => {
      const frame = document.createElement('iframe')
      frame.id = 'preview-frame'
      frame.src = src
      frame.width = '900'
      frame.height = '600'
      const received: unknown[] = []
      ;(window as Window & { received?: unknown[] }).received = received
      // The preview's origin is its own (sandboxed): its messages are known by their window.
      window.addEventListener('message', (event) => {
        if (event.source === frame.contentWindow) received.push({ origin: event.origin, ...event.data })
      })
      document.body.append(frame)
    }, `/app/preview/${welcome.id}`)
    const frame = page.frameLocator('#preview-frame')
    await expect(frame.getByRole('heading', { name: welcome.copy.headline })).toBeVisible()
    await expect.poll(() => page.evaluate(() => (window as Window & { received?: unknown[] }).received)).toContainEqual({ origin: 'null', type: 'preview:ready', hid: welcome.id, theme: 'light' })
    const historyLength = await page.evaluate(() => history.length)

    const post = (url: string) =>
      page.evaluate((target) => (document.getElementById('preview-frame') as HTMLIFrameElement).contentWindow!.postMessage({ type: 'navigate', url: target }, '*'), url)

    await post(`/app/preview/${themed.id}`)
    await expect(frame.getByRole('heading', { name: themed.copy.headline })).toBeVisible()
    await post(`/app/preview/${themed.id}?theme=dark`)
    await expect(frame.locator('[data-plw]')).toHaveAttribute('data-theme', 'dark')
    await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark')
    // Leaving the site is not a preview: ignored.
    await post('https://elsewhere.example/app/preview/abcd1234')
    await post('/login/')
    await expect(frame.locator('[data-plw]')).toHaveAttribute('data-hid', themed.id)
    expect(await page.evaluate(() => history.length)).toBe(historyLength)
    await expect.poll(() => page.evaluate(() => (window as Window & { received?: unknown[] }).received)).toContainEqual({ origin: 'null', type: 'preview:ready', hid: themed.id, theme: 'dark' })
  })
})
