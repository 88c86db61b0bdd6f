import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'node-html-parser'
import request from 'supertest'
import { expect } from 'vitest'
import { pino } from 'pino'
import { createApp, type AppOverrides } from '../../server/app.js'
import { loadConfig } from '../../server/process/config.js'
import { loadSiteData, type SiteData } from '../../server/site-data.js'

import { projectRoot } from '../../server/project-root.js'
import { SHEETS, type SheetName } from '../../shared/site.js'

/** The checkout, found from the sources (never from the working directory). */
export const ROOT = projectRoot

/** Password hashing at a test's pace: the production cost is checked in tests/dashboard/passwords.test.ts. */
export const TEST_SCRYPT_COST = { logN: 10, r: 8, p: 1 }

let projectData: SiteData | undefined

/** The project's own data (data/), read once for every site a test file makes and for its checks. */
export function projectSiteData(): SiteData {
  return (projectData ??= loadSiteData(path.join(ROOT, 'data')))
}

/**
 * The site as tests see it: project data, no build output unless `rootDir` says otherwise,
 * silent logs, and a local dashboard whose database lives in memory.
 */
export function testSite(env: Record<string, string> = {}, overrides: AppOverrides = {}, rootDir = ROOT) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'https://site.example', GIFFER_SECRET: 'test-secret-of-the-site-0123', MAIL_FROM: 'Poplift <no-reply@site.example>', ...env }, rootDir)
  const ownData = !overrides.contentDir && fs.realpathSync(config.contentDir) === fs.realpathSync(path.join(ROOT, 'data'))
  return createApp(config, {
    logger: pino({ level: 'silent' }),
    ...(ownData ? { data: projectSiteData() } : {}),
    ...overrides,
    dashboard: { databaseFile: ':memory:', scryptCost: TEST_SCRYPT_COST, ...overrides.dashboard },
  })
}

export function testApp(env: Record<string, string> = {}, overrides: AppOverrides = {}, rootDir = ROOT) {
  return testSite(env, overrides, rootDir).app
}

/** The fake build's frame parts of the stylesheet; every other part is one rule naming itself. */
export const FAKE_SHEETS: Partial<Record<SheetName, string>> = { site: 'body{color:#111}', footer: '.site-footer{color:#eee}' }

/**
 * A project root with the real data/ and public/ and a small fake build, so asset handling can
 * be tested without running the bundler.
 */
export function rootWithFakeBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-root-'))
  fs.symlinkSync(path.join(ROOT, 'data'), path.join(dir, 'data'))
  fs.symlinkSync(path.join(ROOT, 'public'), path.join(dir, 'public'))
  const assets = path.join(dir, 'dist', 'public', 'assets')
  fs.mkdirSync(assets, { recursive: true })
  fs.writeFileSync(path.join(assets, 'entry-TEST1234.js'), 'console.log("entry")')
  // Each part of the stylesheet: the frame's two, the others a rule each (FAKE_SHEETS).
  for (const name of SHEETS) fs.writeFileSync(path.join(assets, `${name}-TEST1234.css`), FAKE_SHEETS[name] ?? `.${name}-part{color:#222}`)
  // As a build writes it, with a line end the page leaves out.
  fs.writeFileSync(path.join(assets, 'boot-TEST1234.js'), 'import("/assets/entry-TEST1234.js")\n')
  fs.writeFileSync(path.join(assets, 'menus-TEST1234.js'), '(() => {})()')
  fs.writeFileSync(path.join(assets, 'chunk-SHARED12.js'), 'export {}')
  fs.writeFileSync(path.join(assets, 'Pricing-PRICE123.js'), 'export {}')
  fs.writeFileSync(
    path.join(dir, 'dist', 'manifest.json'),
    JSON.stringify({
      bootScript: '/assets/boot-TEST1234.js',
      menus: '/assets/menus-TEST1234.js',
      app: ['/assets/entry-TEST1234.js', '/assets/chunk-SHARED12.js'],
      sheets: SHEETS.map((name) => ({ name, href: `/assets/${name}-TEST1234.css` })),
      pageSheets: { Pricing: ['home', 'pricing'], Faq: ['long-form'], Home: [] },
      modules: { Pricing: ['/assets/Pricing-PRICE123.js'] },
    }),
  )
  return dir
}

/**
 * The text a visitor reads in a page, or in the element a CSS selector picks: tags and React's
 * `<!-- -->` text separators gone, entities decoded, white space collapsed.
 */
export function textOf(html: string, selector?: string): string {
  const root = parse(html, { comment: false })
  const node = selector ? root.querySelector(selector) : root
  if (!node) throw new Error(`nothing matches ${selector}`)
  return node.textContent.replace(/\s+/g, ' ').trim()
}

/** A file of data/, parsed. */
export const readDataFile = <T,>(file: string): T => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', file), 'utf8')) as T

/** GETs a page, expecting `status`, and gives its HTML as text and parsed. */
export async function fetchPage(app: ReturnType<typeof testApp>, pathname: string, status = 200) {
  const response = await request(app).get(pathname)
  expect(response.status, pathname).toBe(status)
  return { html: response.text, root: parse(response.text) }
}

/** The breadcrumb trail's texts. */
export const breadcrumbTexts = (root: ReturnType<typeof parse>) => root.querySelectorAll('.breadcrumbs li').map((item) => item.textContent.trim())
