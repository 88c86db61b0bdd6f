/** /sitemap.xml and /robots.txt. */

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

export function sitemapXml(origin: string, paths: readonly string[]): string {
  const urls = [...new Set(paths)].map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /app/', 'Disallow: /giffer/', 'Disallow: /metrics', 'Disallow: /track/', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
}
