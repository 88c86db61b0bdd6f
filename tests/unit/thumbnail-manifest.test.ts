import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { galleryThumbnailSources } from '../../scripts/templates/thumbnail-sources.js'
import { masterPath } from '../../server/gallery/thumbnails.js'
import { contentDir, generatedDir } from '../../server/project-root.js'
import type { ThumbnailKind } from '../../shared/gallery/thumbnail-sizes.js'

const manifest = JSON.parse(fs.readFileSync(path.join(generatedDir, 'thumbnails', 'manifest.json'), 'utf8')) as Record<ThumbnailKind, Record<string, string>>
const sources = galleryThumbnailSources(contentDir)

describe('card images match their templates', () => {
  for (const kind of ['widgets', 'emails'] as const) {
    it(`every ${kind.slice(0, -1)} template has an image drawn from its current version (else run npm run thumbnails)`, () => {
      const stale = sources[kind].filter(({ hid, revision }) => manifest[kind][hid] !== revision || !fs.existsSync(masterPath(contentDir, kind, hid)))
      expect(stale.map(({ hid }) => hid)).toEqual([])
    })

    it(`no ${kind.slice(0, -1)} image is left from a template that is gone`, () => {
      const current = new Set(sources[kind].map(({ hid }) => hid))
      const files = fs.existsSync(path.join(generatedDir, 'thumbnails', kind)) ? fs.readdirSync(path.join(generatedDir, 'thumbnails', kind)) : []
      expect(files.filter((file) => !current.has(file.replace(/\.webp$/, '')))).toEqual([])
      expect(Object.keys(manifest[kind]).filter((hid) => !current.has(hid))).toEqual([])
    })
  }
})
