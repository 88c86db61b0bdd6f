/**
 * Answers of the gallery endpoints, kept by URL. The catalogs are read once at start-up and never
 * change while the process runs, so one URL always gets the same bytes: a repeat is sent from
 * memory (or answered 304) without validating, querying and serialising again. Only 200 answers
 * are kept, and only as many as fit the bounds below.
 */
import type { RequestHandler } from 'express'
import { LRUCache } from 'lru-cache'

interface KeptAnswer {
  body: Buffer
  etag: string
  cacheControl: string
}

const MAX_ANSWERS = 2000
const MAX_BYTES = 16 * 1024 * 1024
/** Longer URLs (search text, odd parameters) are answered, never kept. */
const MAX_KEY_LENGTH = 512

export function keepAnswers(): RequestHandler {
  const answers = new LRUCache<string, KeptAnswer>({ max: MAX_ANSWERS, maxSize: MAX_BYTES, sizeCalculation: (answer) => answer.body.length + 64 })
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const key = req.originalUrl
    const kept = answers.get(key)
    if (kept) {
      res.status(200)
      res.setHeader('Content-Type', 'application/json; charset=utf-8')
      res.setHeader('Cache-Control', kept.cacheControl)
      res.setHeader('ETag', kept.etag)
      if (req.fresh) {
        res.status(304).end()
        return
      }
      res.setHeader('Content-Length', kept.body.length)
      res.end(req.method === 'HEAD' ? undefined : kept.body)
      return
    }
    if (key.length > MAX_KEY_LENGTH) return next()
    const json = res.json.bind(res)
    res.json = (body: unknown) => {
      if (res.statusCode !== 200) return json(body)
      const text = JSON.stringify(body)
      res.type('json').send(text)
      const etag = res.getHeader('ETag')
      const cacheControl = res.getHeader('Cache-Control')
      if (typeof etag === 'string' && typeof cacheControl === 'string') answers.set(key, { body: Buffer.from(text), etag, cacheControl })
      return res
    }
    next()
  }
}
