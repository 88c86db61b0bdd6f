/**
 * The piscina worker: draws one job and hands the bytes back without copying them. Expected
 * refusals (too large, unreadable image) come back as values; anything else is a bug and is
 * thrown, so the pool logs it.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina'
import sharp from 'sharp'
import { RenderRefused, type RenderJob, type RenderResult, type WarmUp } from './jobs.js'
import { renderCountdown } from './render/countdown.js'
import { renderScrollingText } from './render/scrolling-text.js'
import { renderSlideshow } from './render/slideshow.js'
import { portPhotoReader } from './photo-source.js'
import { renderTextPreview } from './render/text-preview.js'
import { reducePhoto } from './render/reduce-photo.js'

// One job per worker thread at a time; libvips should not fan out behind the pool's back.
sharp.concurrency(1)
sharp.cache(false)

async function render(job: RenderJob) {
  switch (job.kind) {
    case 'countdown':
      return renderCountdown(job)
    case 'scrolling-text':
      return renderScrollingText(job)
    case 'text-preview':
      return renderTextPreview(job)
    case 'slideshow':
    case 'reduce-photo': {
      if (!job.photoSource) throw new Error(`a ${job.kind} job needs the port its photos come through`)
      const read = portPhotoReader(job.photoSource)
      try {
        return await (job.kind === 'slideshow' ? renderSlideshow(job, read) : reducePhoto(job, read))
      } finally {
        job.photoSource.close()
      }
    }
  }
}

export default async function renderJob(job: RenderJob | WarmUp): Promise<RenderResult | WarmUp | object> {
  // Loading this module was the work: the thread is ready.
  if (job.kind === 'warm-up') return job
  try {
    const image = await render(job)
    // Transfer the bytes to the main thread instead of copying them.
    return move({ [transferableSymbol]: [image.body.buffer], [valueSymbol]: image } as never)
  } catch (error) {
    if (error instanceof RenderRefused) return { ok: false, ...error.refusal }
    throw error
  }
}
