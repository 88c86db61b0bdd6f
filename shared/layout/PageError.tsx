import { isRouteErrorResponse, useRouteError } from 'react-router'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'

export function NotFoundMessage() {
  return (
    <section className="page narrow error-page">
      <Seo title="Page not found" description="The page you were looking for does not exist or has moved." noindex />
      <p className="eyebrow">Error 404</p>
      <h1>We can’t find that page</h1>
      <p className="lead">The link may be old, or the page has moved. These are good places to continue:</p>
      <ul className="link-list">
        <li><SiteLink href="/">Home page</SiteLink></li>
        <li><SiteLink href="/pricing/">Plans and pricing</SiteLink></li>
        <li><SiteLink href="/blog/">Blog</SiteLink></li>
        <li><SiteLink href="/help/">Help center</SiteLink></li>
      </ul>
    </section>
  )
}

/** Shown in place of a page whose data could not be found (404) or loaded (500); the site chrome stays. */
export function PageErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundMessage />
  return (
    <section className="page narrow error-page">
      <Seo title="Something went wrong" description="An unexpected error stopped this page from loading." noindex />
      <p className="eyebrow">Error</p>
      <h1>Something went wrong</h1>
      <p className="lead">This page could not be loaded. Please try again in a moment.</p>
      <p>
        <SiteLink href="/">Go to the home page</SiteLink>
      </p>
    </section>
  )
}
