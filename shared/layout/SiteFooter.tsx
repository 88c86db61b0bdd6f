import { SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import type { HomeContent, SiteNav } from '../content/schema.js'
import { CONTENT_END_ID, SITE_NAME } from '../site.js'

/** The copyright year shown on the site: fixed at 2025, not the current year. */
export const DISPLAYED_YEAR = 2025

/** Text and links only, the same on every page: left as the server drew it for as long as the site is open. */
export function SiteFooter({ nav, cta }: { nav: SiteNav; cta: HomeContent['cta'] }) {
  return (
    <StaticHtml as="footer" fixed className="site-footer" id={CONTENT_END_ID}>
      <section className="footer-cta" aria-labelledby="footer-cta-title">
        <h2 id="footer-cta-title">{cta.title}</h2>
        <p>{cta.text}</p>
        <SiteLink className="button button-primary button-large" href={cta.button.href}>
          {cta.button.text}
        </SiteLink>
      </section>
      <div className="footer-columns">
        {nav.footer.columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="footer-title">{column.title}</h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.href}>
                  <SiteLink href={link.href}>{link.label}</SiteLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="footer-bottom">
        <p>
          © {DISPLAYED_YEAR} {SITE_NAME}. All rights reserved.
        </p>
        <ul className="footer-legal">
          {nav.footer.legal.map((link) => (
            <li key={link.href}>
              <SiteLink href={link.href}>{link.label}</SiteLink>
            </li>
          ))}
        </ul>
      </div>
    </StaticHtml>
  )
}
