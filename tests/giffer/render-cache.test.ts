/**
 * The render cache joins identical requests to one render, and tells that render its requests
 * have gone only once every one of them has: one client leaving never cancels another's image.
 */
import { describe, expect, it } from 'vitest'
import { RenderCache } from '../../server/giffer/cache.js'
import type { RenderedImage } from '../../server/giffer/jobs.js'

const image: RenderedImage = { ok: true, body: new Uint8Array([1, 2, 3]), contentType: 'image/gif', width: 1, height: 1, frames: 1 }

/** A render that finishes when told to, and records whether it was told everyone left. */
function heldRender() {
  let finish!: () => void
  const state = { calls: 0, abandoned: false }
  const render = (everyoneGone: AbortSignal) => {
    state.calls++
    everyoneGone.addEventListener('abort', () => (state.abandoned = true))
    return new Promise<RenderedImage>((resolve) => (finish = () => resolve(image)))
  }
  return { render, state, finish: () => finish() }
}

describe('render cache', () => {
  it('keeps rendering while one of two joined requests remains, and keeps the image', async () => {
    const cache = new RenderCache(1024 * 1024)
    const { render, state, finish } = heldRender()
    const first = new AbortController()
    const a = cache.getOrRender('k', render, { signal: first.signal })
    const b = cache.getOrRender('k', render, { signal: new AbortController().signal })
    first.abort()
    expect(state.abandoned).toBe(false)
    finish()
    expect(await b).toEqual({ image, source: 'joined' })
    expect(await a).toEqual({ image, source: 'rendered' })
    expect(state.calls).toBe(1)
    expect(await cache.getOrRender('k', render)).toEqual({ image, source: 'hit' })
  })

  it('tells the render once every request waiting for it has gone', async () => {
    const cache = new RenderCache(1024 * 1024)
    const { render, state, finish } = heldRender()
    const first = new AbortController()
    const second = new AbortController()
    const a = cache.getOrRender('k', render, { signal: first.signal })
    const b = cache.getOrRender('k', render, { signal: second.signal })
    first.abort()
    second.abort()
    expect(state.abandoned).toBe(true)
    finish()
    await Promise.all([a, b])
  })

  it('never tells it while a request without a signal waits', async () => {
    const cache = new RenderCache(1024 * 1024)
    const { render, state, finish } = heldRender()
    const gone = new AbortController()
    const a = cache.getOrRender('k', render)
    const b = cache.getOrRender('k', render, { signal: gone.signal })
    gone.abort()
    expect(state.abandoned).toBe(false)
    finish()
    await Promise.all([a, b])
  })

  it('starts a render of its own for a request that comes once every one before it has gone, rather than joining one being dropped', async () => {
    const cache = new RenderCache(1024 * 1024)
    const dropped = heldRender()
    const gone = new AbortController()
    const first = cache.getOrRender('k', dropped.render, { signal: gone.signal })
    gone.abort()
    expect(dropped.state.abandoned).toBe(true)
    const fresh = heldRender()
    const second = cache.getOrRender('k', fresh.render)
    expect(fresh.state.calls).toBe(1)
    fresh.finish()
    expect(await second).toEqual({ image, source: 'rendered' })
    // The dropped one ending later leaves the fresh one's image in place.
    dropped.finish()
    await first
    expect(await cache.getOrRender('k', fresh.render)).toEqual({ image, source: 'hit' })
  })

  it('starts a render again after a failed one, keeping nothing of it', async () => {
    const cache = new RenderCache(1024 * 1024)
    await expect(cache.getOrRender('k', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken')
    expect(await cache.getOrRender('k', () => Promise.resolve(image))).toEqual({ image, source: 'rendered' })
  })
})
