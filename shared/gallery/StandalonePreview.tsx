import { useEffect, useState } from 'react'
import { Seo } from '../components/Seo.js'
import { clonePath, previewFramePath, WIDGET_PREVIEW_ALLOW, WIDGET_PREVIEW_SANDBOX } from './paths.js'
import { usePageData } from '../page-data.js'

/**
 * The origin of the page framing this one, when it is one allowed to hear the choice; null when
 * the preview is not framed or its parent is a stranger (a choice then leads to the clone link).
 */
function parentOrigin(allowed: string[]): string | null {
  if (window.parent === window) return null
  const candidates = [window.location.ancestorOrigins?.[0], document.referrer ? new URL(document.referrer).origin : undefined]
  return candidates.find((origin): origin is string => origin !== undefined && allowed.includes(origin)) ?? null
}

/** A template's live preview for embedding; choosing it tells the parent page which one. */
export default function StandalonePreview() {
  const { gallery, card, collection, parentOrigins } = usePageData('widget-preview', 'email-preview')
  const [parent, setParent] = useState<string | null>(null)
  useEffect(() => setParent(parentOrigin(parentOrigins)), [parentOrigins])

  const index = Math.max(0, collection.findIndex((item) => item.hid === card.hid))
  const ids = collection.map((item) => item.hid).join(',')
  const base = gallery === 'widgets' ? '/widget-preview/' : '/email-preview/'
  const linkTo = (offset: number) => `${base}?id=${collection[(index + offset + collection.length) % collection.length]!.hid}&collection=${ids}`

  const choose = () => {
    if (!parent) {
      window.location.assign(clonePath(gallery, card.hid))
      return
    }
    const message = gallery === 'widgets' ? { event: 'select', widgetId: card.hid } : { event: 'select', emailId: card.hid }
    window.parent.postMessage(message, parent)
  }

  return (
    <div className="standalone-preview">
      <Seo title={`${card.name} — preview`} description={`Live preview of the ${card.name} template.`} noindex />
      <header className="preview-bar">
        <h1>{card.name}</h1>
        {collection.length > 1 && (
          <nav className="preview-pager" aria-label="Templates">
            <a href={linkTo(-1)} aria-label="Previous template">
              ‹
            </a>
            <span>
              {index + 1} / {collection.length}
            </span>
            <a href={linkTo(1)} aria-label="Next template">
              ›
            </a>
          </nav>
        )}
        <button type="button" className="button button-primary" onClick={choose}>
          Use this template
        </button>
      </header>
      <iframe
        className="preview-frame"
        title={`${card.name}, live preview`}
        src={previewFramePath(gallery, card.hid)}
        sandbox={gallery === 'widgets' ? WIDGET_PREVIEW_SANDBOX : undefined}
        allow={gallery === 'widgets' ? WIDGET_PREVIEW_ALLOW : undefined}
      />
    </div>
  )
}
