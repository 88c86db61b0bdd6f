import { useRouterLinkClicks } from './SiteLink.js'

/** The site's Markdown writes links to its own pages as paths. */
const isSitePath = (anchor: HTMLAnchorElement) => {
  const href = anchor.getAttribute('href') ?? ''
  return href.startsWith('/') && !href.startsWith('//')
}

/**
 * HTML rendered on the server from the site's own Markdown. Clicks on links to pages of this
 * router navigate in the browser instead of reloading the document.
 */
export function Prose({ html, className = 'prose' }: { html: string; className?: string }) {
  const onClick = useRouterLinkClicks(isSitePath)
  return <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
}
