import path from 'node:path'
import { parse } from 'node-html-parser'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { loadGeneratorsFile } from '../../server/generators/content.js'
import { ROOT, testApp } from './app.js'

const app = testApp()
const copy = loadGeneratorsFile(path.join(ROOT, 'data')).pages.slideshow!

async function page(pathname: string) {
  const response = await request(app).get(pathname).expect(200)
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
  return parse(response.text)
}

describe('/image-slideshow-gif-generator/', () => {
  it('renders its heading, the uploader, the modes and the settings in one form', async () => {
    const root = await page('/image-slideshow-gif-generator/')
    expect(root.querySelector('h1')?.textContent).toBe('Image slideshow GIF generator')
    expect(root.querySelector('title')?.textContent).toContain(copy.title)
    const form = root.querySelector('form[aria-label="Slideshow settings"]')!
    expect(form).not.toBeNull()
    const files = form.querySelector('input[type="file"]#slideshow-files')!
    expect(files.getAttribute('accept')).toBe('image/jpeg,image/png,image/webp,image/heic,image/heif,.jpeg,.jpg,.png,.webp,.heic,.heif')
    expect(files.hasAttribute('multiple')).toBe(true)
    expect(form.querySelector('label[for="slideshow-files"]')?.textContent).toContain('Add images')
    expect(form.querySelectorAll('input[name="mode"]').map((radio) => radio.getAttribute('value'))).toEqual(['slideshow', 'row', 'trio', 'overlay'])
    expect(form.querySelector('input[name="mode"][checked]')?.getAttribute('value')).toBe('slideshow')
    for (const name of ['delay', 'radius', 'gap', 'border']) expect(form.querySelector(`input[name="${name}"]`), name).not.toBeNull()
    expect(form.querySelector('select[name="aspect"]')).not.toBeNull()
    expect(form.querySelector('input[name="borderColor"]')).not.toBeNull()
    // Every control has a label.
    for (const control of form.querySelectorAll('input:not([type="radio"]), select')) {
      expect(form.querySelector(`label[for="${control.id}"]`), control.toString()).not.toBeNull()
    }
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe(copy.submit.idle)
    expect(root.querySelector('.generator-result')?.textContent).toContain('Your image appears here.')
    expect(root.querySelectorAll('.generator-faq summary').map((summary) => summary.textContent)).toEqual(copy.faq.items.map((item) => item.q))
  })

  it('opens with the settings of a shared link, each mode showing its own fields', async () => {
    const overlay = await page('/image-slideshow-gif-generator/?mode=overlay&delay=2.5&overlay=hero-cut&opacity=30&aspect=4:5&borderColor=ff8800')
    expect(overlay.querySelector('input[name="mode"][checked]')?.getAttribute('value')).toBe('overlay')
    expect(overlay.querySelector('input[name="delay"]')?.getAttribute('value')).toBe('2.5')
    expect(overlay.querySelector('select[name="overlay"] option[selected]')?.getAttribute('value')).toBe('hero-cut')
    expect(overlay.querySelector('input[name="opacity"]')?.getAttribute('value')).toBe('30')
    expect(overlay.querySelector('select[name="aspect"] option[selected]')?.getAttribute('value')).toBe('4:5')
    expect(overlay.querySelector('input[name="borderColor"]')?.getAttribute('value')).toBe('#ff8800')
    expect(overlay.querySelector('select[name="trio"]')).toBeNull()
    expect(overlay.querySelector('select[name="columns"]')).toBeNull()

    const row = await page('/image-slideshow-gif-generator/?mode=row&columns=4')
    expect(row.querySelector('select[name="columns"] option[selected]')?.getAttribute('value')).toBe('4')
    expect(row.querySelector('input[name="opacity"]')).toBeNull()

    const trio = await page('/image-slideshow-gif-generator/?mode=trio&trio=soft-cut')
    expect(trio.querySelector('select[name="trio"] option[selected]')?.getAttribute('value')).toBe('soft-cut')
  })

  it('opens with the defaults when a shared link is unusable', async () => {
    const root = await page('/image-slideshow-gif-generator/?mode=carousel&delay=-4&aspect=2:1&borderColor=%3Cscript%3E')
    expect(root.querySelector('input[name="mode"][checked]')?.getAttribute('value')).toBe('slideshow')
    expect(root.querySelector('input[name="delay"]')?.getAttribute('value')).toBe('1.5')
    expect(root.querySelector('select[name="aspect"] option[selected]')?.getAttribute('value')).toBe('1:1')
    expect(root.querySelector('input[name="borderColor"]')?.getAttribute('value')).toBe('#111827')
  })
})
