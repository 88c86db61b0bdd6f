import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { RenderedImage } from './jobs.js'

/** The content address of a render: a hash of the job kind and its normalised parameters. */
export function renderKey(kind: string, params: unknown): string {
  return createHash('sha256').update(kind).update('\n').update(JSON.stringify(params)).digest('base64url')
}

export interface CachedRender {
  image: RenderedImage
  /** 'hit': from memory; 'joined': rendered for an identical request in flight; 'rendered': drawn now. */
  source: 'hit' | 'joined' | 'rendered'
}

/**
 * Rendered images by content address, bounded in bytes. Identical requests that arrive while
 * the first is still rendering wait for that render instead of starting their own.
 */
export class RenderCache {
  private readonly images: LRUCache<string, RenderedImage>
  private readonly inFlight = new Map<string, Promise<RenderedImage>>()

  constructor(maxBytes: number) {
    this.images = new LRUCache<string, RenderedImage>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (image) => image.body.byteLength + 256,
      maxEntrySize: Math.max(1, maxBytes),
    })
  }

  /** How many images are kept and the bytes they hold. */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.images.size, bytes: this.images.calculatedSize }
  }

  async getOrRender(key: string, render: () => Promise<RenderedImage>, ttlMs?: number): Promise<CachedRender> {
    const cached = this.images.get(key)
    if (cached) return { image: cached, source: 'hit' }
    const pending = this.inFlight.get(key)
    if (pending) return { image: await pending, source: 'joined' }
    const job = render()
    this.inFlight.set(key, job)
    try {
      const image = await job
      this.images.set(key, image, ttlMs ? { ttl: Math.max(1, ttlMs) } : {})
      return { image, source: 'rendered' }
    } finally {
      this.inFlight.delete(key)
    }
  }
}
