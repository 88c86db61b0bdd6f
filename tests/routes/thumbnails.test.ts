import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import sharp from 'sharp'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { masterPath, thumbnailRouter } from '../../server/gallery/thumbnails.js'

const HID = 'ab12cd34'
const REVISION = 'rev00001'
const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thumbnails-'))
const app = express().use(
  '/thumbnails',
  thumbnailRouter(contentDir, { revisionOf: (kind, hid) => (hid === HID || (kind === 'emails' && hid === 'nomastr1')) ? REVISION : undefined }),
)

/** Reads the binary body of an image answer. */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = []
    res.on('data', (chunk: Buffer) => chunks.push(chunk))
    res.on('end', () => done(null, Buffer.concat(chunks)))
  })

beforeAll(async () => {
  const file = masterPath(contentDir, 'widgets', HID)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await sharp({ create: { width: 716, height: 537, channels: 3, background: '#4f46e5' } }).webp().toFile(file)
})

describe('card images', () => {
  it('cuts each offered width from the master, in WebP and AVIF, cached for good under the current revision', async () => {
    for (const [width, format] of [[268, 'webp'], [376, 'avif'], [716, 'webp']] as const) {
      const response = await binary(request(app).get(`/thumbnails/widgets/${HID}-${width}.${format}?v=${REVISION}`))
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe(`image/${format}`)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      const meta = await sharp(response.body as Buffer).metadata()
      expect(meta.width).toBe(width)
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp')
    }
  })

  it('an old or missing revision is cached only briefly', async () => {
    const response = await request(app).get(`/thumbnails/widgets/${HID}-360.webp?v=old`)
    expect(response.status).toBe(200)
    expect(response.headers['cache-control']).toBe('public, max-age=3600')
  })

  it('answers 404 JSON for unknown galleries, names, widths and templates, and for templates without an image', async () => {
    for (const url of [
      `/thumbnails/pictures/${HID}-376.webp`,
      `/thumbnails/widgets/${HID}-377.webp`,
      `/thumbnails/widgets/${HID}-376.png`,
      `/thumbnails/widgets/../../etc-376.webp`,
      '/thumbnails/widgets/zz99zz99-376.webp',
      '/thumbnails/emails/nomastr1-376.webp',
    ]) {
      const response = await request(app).get(url)
      expect(response.status, url).toBe(404)
    }
    const missing = await request(app).get('/thumbnails/emails/nomastr1-376.webp')
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'This template has no image yet.' } })
  })

  it('many requests for one image at once share one encoding and get the same bytes', async () => {
    const url = `/thumbnails/widgets/${HID}-360.avif?v=${REVISION}`
    const answers = await Promise.all(Array.from({ length: 12 }, () => binary(request(app).get(url))))
    const first = answers[0]!.body as Buffer
    for (const answer of answers) expect((answer.body as Buffer).equals(first)).toBe(true)
  })
})
