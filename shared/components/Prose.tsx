import type { MouseEvent } from 'react'
import { useNavigate } from 'react-router'
import { isRouterPath } from '../pages.js'
import { isPlainClick } from './SiteLink.js'

/**
 * HTML rendered on the server from the site's own Markdown. Clicks on links to pages of this
 * router navigate in the browser instead of reloading the document.
 */
export function Prose({ html, className = 'prose' }: { html: string; className?: string }) {
  const navigate = useNavigate()
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!isPlainClick(event)) return
    const anchor = (event.target as HTMLElement).closest('a')
    const href = anchor?.getAttribute('href')
    if (!anchor || !href || anchor.target || !href.startsWith('/') || href.startsWith('//')) return
    const url = new URL(href, window.location.href)
    if (!isRouterPath(url.pathname)) return
    event.preventDefault()
    navigate(url.pathname + url.search + url.hash)
  }
  return <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
}
