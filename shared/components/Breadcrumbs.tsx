import type { Breadcrumbs as Trail } from '../content/schema.js'
import { SiteLink } from './SiteLink.js'

export function Breadcrumbs({ trail }: { trail: Trail }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {trail.map((crumb, index) => (
          <li key={crumb.href}>
            {index === trail.length - 1 ? <span aria-current="page">{crumb.text}</span> : <SiteLink href={crumb.href}>{crumb.text}</SiteLink>}
          </li>
        ))}
      </ol>
    </nav>
  )
}
