import type { MouseEvent } from 'react'
import { SiteLink } from '../components/SiteLink.js'
import type { GalleryKind } from './paths.js'
import type { SidebarGroup } from './gallery.route.js'

const NAMES: Record<GalleryKind, string> = { widgets: 'Widgets', emails: 'Emails' }

/** A listing's groups, each with its categories; following one is a filter change (`onFollow`). */
export function GallerySidebar({ kind, groups, onFollow }: { kind: GalleryKind; groups: SidebarGroup[]; onFollow: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <aside className="sidebar gallery-sidebar" aria-label={`${NAMES[kind]} groups`}>
      <ul>
        {groups.map((group) => (
          <li key={group.path} className={group.subs.length ? 'has-subs' : undefined}>
            <SiteLink onClick={onFollow} href={group.path} aria-current={group.current && !group.subs.some((sub) => sub.current) ? 'page' : undefined}>
              {group.name}
            </SiteLink>{' '}
            <span className="count">{group.count}</span>
            {/* The group's link and the control that shows its categories are two elements (a
                link inside a <summary> would be a control inside a control); a native disclosure,
                so the categories open without the script too. */}
            {group.subs.length > 0 && (
              <details open={group.current}>
                <summary>
                  <span className="visually-hidden">{group.name} categories</span>
                  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
                    <path d="M6 3.5 10.5 8 6 12.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </summary>
                <ul>
                  {group.subs.map((sub) => (
                    <li key={sub.path}>
                      <SiteLink onClick={onFollow} href={sub.path} aria-current={sub.current ? 'page' : undefined}>
                        {sub.name}
                      </SiteLink>{' '}
                      <span className="count">{sub.count}</span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </aside>
  )
}
