/**
 * One data layer: a site built on another content folder shows that folder everywhere at once,
 * in the API, the pages, the clone links and the dashboard's previews and email views, never the
 * project's own data/ in one place and the configured folder in another.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { GENERATED } from '../../server/project-root.js'
import { loadSiteData } from '../../server/site-data.js'
import { TEMPLATE_ID_SOURCE } from '../../shared/gallery/paths.js'
import { ROOT, testSite, textOf } from './app.js'

interface Named {
  id: string
  name: string
}

const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-content-'))
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-state-'))
fs.cpSync(path.join(ROOT, 'data'), contentDir, { recursive: true })

const generated = (file: string) => path.join(contentDir, GENERATED, file)
const readJson = <T,>(file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as T
/** Every template id the home page names: those must stay, or the site refuses to start. */
const onHome = new Set(JSON.stringify(readJson(path.join(contentDir, 'home.json'))).match(new RegExp(`\\b${TEMPLATE_ID_SOURCE}\\b`, 'g')))

// The copy: one widget template renamed, another one gone, and one email template gone.
const widgets = readJson<(Named & { group: string })[]>(generated('widget-templates.json'))
const [renamed, removed] = widgets.filter((template) => template.group === 'forms' && !onHome.has(template.id))
if (!renamed || !removed) throw new Error('the test needs two form templates the home page does not show')
const NEW_NAME = 'Renamed in the content folder'
const projectName = renamed.name
renamed.name = NEW_NAME
fs.writeFileSync(generated('widget-templates.json'), JSON.stringify(widgets.filter((template) => template !== removed)))

const emails = readJson<{ templates: Named[] }>(generated('email-templates.json'))
const removedEmail = emails.templates.find((template) => !onHome.has(template.id))!
fs.writeFileSync(generated('email-templates.json'), JSON.stringify({ ...emails, templates: emails.templates.filter((template) => template !== removedEmail) }))

const site = testSite({ DATA_DIR: stateDir }, { contentDir })
const { app } = site
const project = testSite()

afterAll(async () => {
  await Promise.all([site.close(), project.close()])
  for (const dir of [contentDir, stateDir]) fs.rmSync(dir, { recursive: true, force: true })
})

describe('a site built on another content folder', () => {
  it('reads its data from that folder', () => {
    expect(site.data.contentDir).toBe(contentDir)
    expect(site.data.galleries.catalogs.widgets.byId(renamed.id)?.name).toBe(NEW_NAME)
    expect(project.data.galleries.catalogs.widgets.byId(renamed.id)?.name).toBe(projectName)
  })

  it('lists the renamed widget template under its new name in /api/widgets, and the removed one nowhere', async () => {
    const all = (await request(app).get('/api/widgets?group=forms&limit=100').expect(200)).body as { items: Named[]; total: number }
    const projectAll = (await request(project.app).get('/api/widgets?group=forms&limit=100').expect(200)).body as { items: Named[]; total: number }
    expect(all.total).toBe(projectAll.total - 1)
    expect(all.items.find((item) => item.id === renamed.id)?.name).toBe(NEW_NAME)
    expect(all.items.some((item) => item.id === removed.id)).toBe(false)
    expect(projectAll.items.some((item) => item.id === removed.id)).toBe(true)
  })

  it('answers /api/widgets/{hid} from that folder', async () => {
    expect((await request(app).get(`/api/widgets/${renamed.id}`).expect(200)).body.name).toBe(NEW_NAME)
    await request(app).get(`/api/widgets/${removed.id}`).expect(404)
    await request(project.app).get(`/api/widgets/${removed.id}`).expect(200)
  })

  it('shows the new name on the /p/{hid} page, and no page for the removed template', async () => {
    const response = await request(app).get(`/p/${renamed.id}`).expect(200)
    expect(textOf(response.text, 'dialog h2')).toBe(NEW_NAME)
    await request(app).get(`/p/${removed.id}`).expect(404)
  })

  it('clones what the folder has, through /t/{hid} and /te/{hid}', async () => {
    expect((await request(app).get(`/t/${renamed.id}`).expect(302)).headers.location).toBe(`/app/clone/${renamed.id}`)
    await request(app).get(`/t/${removed.id}`).expect(404)
    await request(app).get(`/te/${removedEmail.id}`).expect(404)
    await request(project.app).get(`/te/${removedEmail.id}`).expect(302)
  })

  it('previews the renamed template under its new name in the dashboard, and not the removed one', async () => {
    const preview = await request(app).get(`/app/preview/${renamed.id}`).expect(200)
    expect(textOf(preview.text, 'h1.preview-heading')).toBe(`${NEW_NAME}: live preview`)
    await request(app).get(`/app/preview/${removed.id}`).expect(404)
    await request(app).get(`/app/clone/${removed.id}`).expect(404)
  })

  it('has no email view, API answer or card for the removed email template', async () => {
    await request(app).get(`/app/api/v2/emailmessages/${removedEmail.id}/view`).expect(404)
    await request(project.app).get(`/app/api/v2/emailmessages/${removedEmail.id}/view`).expect(200)
    await request(app).get(`/api/emails/${removedEmail.id}`).expect(404)
    await request(project.app).get(`/api/emails/${removedEmail.id}`).expect(200)
    await request(app).get(`/e/${removedEmail.id}`).expect(404)
    await request(project.app).get(`/e/${removedEmail.id}`).expect(200)
  })

  it('serves no card image for the removed templates', async () => {
    await request(app).get(`/thumbnails/widgets/${removed.id}-376.webp`).expect(404)
    await request(app).get(`/thumbnails/emails/${removedEmail.id}-376.webp`).expect(404)
    await request(project.app).get(`/thumbnails/emails/${removedEmail.id}-376.webp`).expect(200)
    await request(app).get(`/thumbnails/widgets/${renamed.id}-376.webp`).expect(200)
  })

  it('leaves the removed templates out of the sitemap', async () => {
    const sitemap = (await request(app).get('/sitemap.xml').expect(200)).text
    expect(sitemap).toContain(`/p/${renamed.id}<`)
    expect(sitemap).not.toContain(`/p/${removed.id}<`)
    expect(sitemap).not.toContain(`/e/${removedEmail.id}<`)
    expect((await request(project.app).get('/sitemap.xml').expect(200)).text).toContain(`/e/${removedEmail.id}<`)
  })
})

describe('a content folder whose font list the image service cannot draw', () => {
  it('stops the start naming the file and the font, rather than offering a font every render refuses', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'site-fonts-'))
    try {
      fs.cpSync(path.join(ROOT, 'data'), folder, { recursive: true })
      const fontsFile = path.join(folder, 'fonts.json')
      const fonts = readJson<{ fonts: { id: string; family: string; groups: string[] }[] }>(fontsFile)
      const pickable = fonts.fonts.find((font) => !font.groups.includes('fallback') && !font.groups.includes('icons'))!
      pickable.id = 'not-a-shipped-font'
      pickable.family = 'Not A Shipped Font'
      fs.writeFileSync(fontsFile, JSON.stringify(fonts))
      expect(() => loadSiteData(folder)).toThrow(`${fontsFile} names fonts the image service does not ship: not-a-shipped-font`)
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
