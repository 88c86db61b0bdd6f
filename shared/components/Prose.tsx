import { isSitePathLink, SITE_PATHS_ATTRIBUTE, useRouterLinkClicks } from './SiteLink.js'

/**
 * HTML rendered on the server from the site's own Markdown. Clicks on links to pages of this
 * router navigate in the browser instead of reloading the document.
 */
export function Prose({ html, className = 'prose' }: { html: string; className?: string }) {
  const onClick = useRouterLinkClicks(isSitePathLink)
  return <div className={className} {...{ [SITE_PATHS_ATTRIBUTE]: '' }} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
}
