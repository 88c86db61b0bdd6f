import { useEffect, useRef } from 'react'

/** Marks the body while a generator page is on screen in a browser on a Mac (`body.is-mac`). */
export function useMacMarker(): void {
  useEffect(() => {
    const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || ''
    if (!/mac/i.test(platform)) return
    document.body.classList.add('is-mac')
    return () => document.body.classList.remove('is-mac')
  }, [])
}

/** Writes to the address bar at most this often: browsers limit how often it may change. */
const URL_WRITE_DELAY_MS = 300

/**
 * Keeps the page's settings in its address, so a result can be shared and reopened. The entry is
 * replaced, not added (the back button leaves the page), and the router's own state is kept: the
 * router reads the address again when the visitor comes back to this entry.
 */
export function useSettingsInUrl(query: string): void {
  const first = useRef(true)
  useEffect(() => {
    // The first render shows what the address already says.
    if (first.current) {
      first.current = false
      return
    }
    const timer = setTimeout(() => {
      const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`
      if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) window.history.replaceState(window.history.state, '', url)
    }, URL_WRITE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [query])
}
