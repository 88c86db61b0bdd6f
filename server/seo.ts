/** /sitemap.xml and /robots.txt. */
import express from 'express'
import { pages } from '../shared/pages.js'
import type { SiteData } from './site-data.js'

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

function sitemapXml(origin: string, paths: readonly string[]): string {
  const urls = [...new Set(paths)].map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /app/', 'Disallow: /giffer/', 'Disallow: /metrics', 'Disallow: /track/', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
}

/** Every path of the sitemap: the page table's public pages without parameters, and those the content and galleries define. */
function sitemapPaths(data: Pick<SiteData, 'content' | 'galleries'>): string[] {
  const staticPaths = pages.filter((page) => !page.path?.match(/[:*]/) && !('private' in page) && !('bare' in page)).map((page) => `/${page.path ?? ''}`)
  return [...staticPaths, ...data.content.paths(), ...data.galleries.widgets.paths(), ...data.galleries.emails.paths()]
}

/** `GET /sitemap.xml` and `GET /robots.txt`, both made once. */
export function seoRoutes(origin: string, data: Pick<SiteData, 'content' | 'galleries'>): express.Router {
  const router = express.Router()
  const sitemap = sitemapXml(origin, sitemapPaths(data))
  const robots = robotsTxt(origin)
  router.get('/sitemap.xml', (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(sitemap)
  })
  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robots)
  })
  return router
}
