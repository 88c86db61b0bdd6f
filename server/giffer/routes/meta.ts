/**
 * `GET fonts`: the fonts users may pick. `GET healthz`: the render pool's state, the render
 * cache's size and the process's memory, for operators watching a long-running service.
 */
import type { Router } from 'express'
import type { GifferContext } from '../context.js'
import { fontScripts } from '../font-coverage.js'
import { pickableFonts } from '../fonts.js'

export function metaRoutes(router: Router, context: GifferContext): void {
  // `scripts`: the alphabets the font draws with its own letters (from its files' character maps).
  const fontList = pickableFonts.map((font) => ({
    id: font.id,
    family: font.family,
    groups: font.groups,
    weights: font.weights,
    gothicStyle: font.gothicStyle,
    scripts: fontScripts(font),
  }))
  router.get('/fonts', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600')
    res.json({ fonts: fontList })
  })

  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store')
    const { rss, heapTotal, external } = process.memoryUsage()
    const mb = (bytes: number) => Math.round(bytes / 1_048_576)
    res.json({
      ok: true,
      // No pool in a box too small to draw images.
      pool: context.pool?.stats ?? null,
      cache: context.cache.stats,
      memory: { rssMb: mb(rss), heapMb: mb(heapTotal), externalMb: mb(external) },
    })
  })
}
