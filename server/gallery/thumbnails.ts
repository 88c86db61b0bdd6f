/**
 * Card images of the galleries: `/thumbnails/{widgets|emails}/{hid}-{width}.{webp|avif}`.
 *
 * Each template has one master image in data/generated/thumbnails/{kind}/{hid}.webp, drawn from the
 * template's own markup by `npm run thumbnails` (in Chromium, on a developer's machine: the
 * server never needs a browser). The sizes the cards ask for through `srcset` are cut from the
 * master on first request, kept in a memory cache bounded in bytes, and sent with immutable
 * caching when the URL carries the template's current revision (`?v=`), so a changed template
 * gets a new URL.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import express, { type Request, type Response } from 'express'
import { LRUCache } from 'lru-cache'
import sharp from 'sharp'
import { TEMPLATE_ID_SOURCE } from '../../shared/gallery/paths.js'
import { THUMBNAIL_WIDTHS, type ThumbnailKind } from '../../shared/gallery/thumbnail-sizes.js'
import { errorBody } from '../process/errors.js'
import { IMMUTABLE } from '../process/http-cache.js'
import { GENERATED } from '../project-root.js'

/** A URL without the current revision may be an old link: cached briefly, never forever. */
const REVISIONLESS = 'public, max-age=3600'
const FORMATS = { webp: 'image/webp', avif: 'image/avif' } as const
type Format = keyof typeof FORMATS

const CACHE_BYTES = 48 * 1024 * 1024
/** Encodes at a time; AVIF is slow, and a page of cards should not starve the other requests. */
const ENCODE_CONCURRENCY = 2

export interface ThumbnailSource {
  /** The revision of a template, or undefined when there is no such template. */
  revisionOf(kind: ThumbnailKind, hid: string): string | undefined
}

/** What an image is cut from: its master, and the width and format asked for. */
interface Cut {
  master: string
  width: number
  format: Format
}

export function masterPath(contentDir: string, kind: ThumbnailKind, hid: string): string {
  return path.join(contentDir, GENERATED, 'thumbnails', kind, `${hid}.webp`)
}

async function encode(master: string, width: number, format: Format): Promise<Buffer> {
  const image = sharp(master, { limitInputPixels: 4096 * 4096 }).resize({ width, withoutEnlargement: true })
  return format === 'webp' ? image.webp({ quality: 78, effort: 4 }).toBuffer() : image.avif({ quality: 50, effort: 2 }).toBuffer()
}

const FILE_PATTERN = new RegExp(`^(${TEMPLATE_ID_SOURCE})-(\\d{1,4})\\.(webp|avif)$`)

export function thumbnailRouter(contentDir: string, source: ThumbnailSource): express.Router {
  const router = express.Router()
  // At most ENCODE_CONCURRENCY encodes run; the others wait their turn in order of arrival.
  let encoding = 0
  const waiting: (() => void)[] = []
  const encodeInTurn = async ({ master, width, format }: Cut): Promise<Buffer> => {
    while (encoding >= ENCODE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve))
    encoding++
    try {
      await fs.access(master)
      return await encode(master, width, format)
    } finally {
      encoding--
      waiting.shift()?.()
    }
  }
  // Images bounded by their total size; `fetch` encodes a missing one once, however many ask at once.
  const cache = new LRUCache<string, Buffer, Cut>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (image) => image.length,
    fetchMethod: (_key, _stale, { context }) => encodeInTurn(context),
  })

  const notFound = (res: Response, message: string) => res.status(404).set('Cache-Control', 'public, max-age=60').json(errorBody('not_found', message))

  router.get('/:kind/:file', async (req: Request, res: Response, next) => {
    const kind = String(req.params.kind) as ThumbnailKind
    if (!(kind in THUMBNAIL_WIDTHS)) return notFound(res, 'No such gallery.')
    const match = FILE_PATTERN.exec(String(req.params.file))
    if (!match) return notFound(res, 'Thumbnail names are {id}-{width}.webp or .avif.')
    const [, hid, widthText, format] = match as unknown as [string, string, string, Format]
    const width = Number(widthText)
    if (!(THUMBNAIL_WIDTHS[kind] as readonly number[]).includes(width)) {
      return notFound(res, `Widths offered: ${THUMBNAIL_WIDTHS[kind].join(', ')}.`)
    }
    const revision = source.revisionOf(kind, hid)
    if (revision === undefined) return notFound(res, 'No such template.')

    const key = `${kind}/${hid}-${width}.${format}`
    try {
      const image = await cache.forceFetch(key, { context: { master: masterPath(contentDir, kind, hid), width, format } })
      res.set({
        'Content-Type': FORMATS[format],
        'Cache-Control': req.query.v === revision ? IMMUTABLE : REVISIONLESS,
        'Access-Control-Allow-Origin': '*',
      })
      res.end(image)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return notFound(res, 'This template has no image yet.')
      next(error)
    }
  })
  return router
}
