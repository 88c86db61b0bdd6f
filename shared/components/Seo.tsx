import { useLocation } from 'react-router'
import { usePageData } from '../page-data.js'
import { SITE_NAME } from '../site.js'

interface SeoProps {
  title: string
  description: string
  /** og:type; articles are blog posts and help articles. */
  type?: 'website' | 'article'
  /** Keep search engines away (error pages). */
  noindex?: boolean
  /** Open Graph image, a path on the site. */
  image?: string
}

/** The page's title, description, canonical URL and Open Graph tags; React hoists them into <head>. */
export function Seo({ title, description, type = 'website', noindex = false, image }: SeoProps) {
  const { origin } = usePageData('root')
  const { pathname } = useLocation()
  const fullTitle = title === SITE_NAME || title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`
  const url = `${origin}${pathname}`
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={url} />}
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:type" content={type} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      {image && <meta property="og:image" content={`${origin}${image}`} />}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
    </>
  )
}
