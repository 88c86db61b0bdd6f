import type { FormEvent, MouseEvent } from 'react'
import { useNavigate } from 'react-router'
import { isPlainClick } from '../components/SiteLink.js'
import type { GalleryKind } from './paths.js'
import type { GalleryListingData } from './gallery.route.js'

/** After a filter change the page scrolls back up to here, where the listing starts. */
const FILTER_SCROLL_TOP = 258

/** Sends filter changes to the analytics layer, as the other tracked actions of the site. */
function trackFilter(kind: GalleryKind, url: string) {
  const win = window as Window & { dataLayer?: object[] }
  win.dataLayer ??= []
  win.dataLayer.push({ event: 'galleryFilter', gallery: kind, url })
}

/**
 * Going to another filter of the listing: tracked, and the page kept where the listing starts.
 * The sidebar's groups and categories are filter changes too, through `followFilterLink`.
 */
export function useFilterChange(kind: GalleryKind) {
  const navigate = useNavigate()

  const changeFilter = (url: string) => {
    trackFilter(kind, url)
    void navigate(url, { state: { scrollCap: FILTER_SCROLL_TOP } })
  }

  const followFilterLink = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return
    event.preventDefault()
    changeFilter(event.currentTarget.getAttribute('href')!)
  }

  return { changeFilter, followFilterLink }
}

/**
 * A listing's category, type and search: a plain GET form without the script (the server
 * redirects a chosen category to its own address); with it, the category's address is built here.
 */
export function GalleryFilter({ data, onChange }: { data: GalleryListingData; onChange: (url: string) => void }) {
  const submitFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const sub = String(form.get('sub') ?? '')
    const params = new URLSearchParams()
    for (const name of ['position', 'q']) {
      const value = String(form.get(name) ?? '').trim()
      if (value) params.set(name, value)
    }
    const path = data.subs.find((candidate) => candidate.value === sub)?.path ?? data.listingPath
    onChange(params.size ? `${path}?${params}` : path)
  }

  return (
    <form className="gallery-filter" action={data.listingPath} method="get" onSubmit={submitFilter}>
      {data.subs.length > 0 && (
        <label>
          <span>Category</span>
          <select name="sub" defaultValue={data.subs.find((sub) => sub.current)?.value ?? ''} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
            {data.subs.map((sub) => (
              <option key={sub.path} value={sub.value}>
                {sub.name} ({sub.count})
              </option>
            ))}
          </select>
        </label>
      )}
      {data.positions.length > 0 && (
        <label>
          <span>Type</span>
          <select name="position" defaultValue={data.position ?? ''} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
            {data.positions.map((position) => (
              <option key={position.path} value={position.value}>
                {position.name} ({position.count})
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="gallery-filter-q">
        <span>Search</span>
        <input name="q" type="search" maxLength={80} defaultValue={data.q} />
      </label>
      <button type="submit">Apply</button>
    </form>
  )
}
