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

/** A render under way, the requests waiting for it, and what tells it they have all gone. */
interface InFlight {
  image: Promise<RenderedImage>
  /** Requests still waiting for it (one without a signal waits whatever happens). */
  waiting: number
  everyoneGone: AbortController
}

/**
 * Rendered images by content address, bounded in bytes. Identical requests that arrive while
 * the first is still rendering wait for that render instead of starting their own; the render
 * is told its requests have gone (its signal aborts) only once every one of them has.
 */
export class RenderCache {
  private readonly images: LRUCache<string, RenderedImage>
  private readonly inFlight = new Map<string, InFlight>()

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

  /** The image kept under `key`, if any; nothing is drawn. */
  peek(key: string): RenderedImage | undefined {
    return this.images.get(key)
  }

  /**
   * The image under `key`: kept, joined to the same render under way, or rendered now. `signal`
   * aborts when this request's client goes away; `render` gets one that aborts when every
   * request waiting for it has gone.
   */
  async getOrRender(key: string, render: (everyoneGone: AbortSignal) => Promise<RenderedImage>, { ttlMs, signal }: { ttlMs?: number; signal?: AbortSignal } = {}): Promise<CachedRender> {
    const cached = this.images.get(key)
    if (cached) return { image: cached, source: 'hit' }
    let flight = this.inFlight.get(key)
    // A render every requester has left is being dropped: a new request starts its own.
    if (flight?.everyoneGone.signal.aborted) flight = undefined
    const source = flight ? 'joined' : 'rendered'
    if (!flight) {
      const everyoneGone = new AbortController()
      const started: InFlight = { image: render(everyoneGone.signal), waiting: 0, everyoneGone }
      this.inFlight.set(key, started)
      started.image.then(
        (image) => this.images.set(key, image, ttlMs ? { ttl: Math.max(1, ttlMs) } : {}),
        () => undefined,
      ).finally(() => {
        if (this.inFlight.get(key) === started) this.inFlight.delete(key)
      })
      flight = started
    }
    const joined = flight
    joined.waiting++
    if (signal?.aborted) leave()
    signal?.addEventListener('abort', leave, { once: true })
    function leave() {
      if (--joined.waiting === 0) joined.everyoneGone.abort()
    }
    try {
      return { image: await joined.image, source }
    } finally {
      signal?.removeEventListener('abort', leave)
    }
  }
}
