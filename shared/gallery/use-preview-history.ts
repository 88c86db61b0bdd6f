import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { openTemplateOf, templatePath, type GalleryKind } from './paths.js'

/**
 * A template's preview over the page the visitor is on, kept in the browser's history: opening
 * pushes the template's address, previous/next replace it, and closing goes back, so the page
 * behind is left as it was and the browser's Back closes the preview too. A preview the visit
 * began on (a template's own address) has nothing here to go back to: closing leads to `leavePath`.
 */
export function usePreviewHistory(kind: GalleryKind, initial: string | null, leavePath: string) {
  const navigate = useNavigate()
  const [open, setOpen] = useState<string | null>(initial)
  /** Whether the preview was opened on this page (so closing goes back) or the visit began on it. */
  const openedHere = useRef(false)

  useEffect(() => setOpen(initial), [initial])

  // Back and forward between the page and a preview opened from it.
  useEffect(() => {
    const onPop = () => setOpen(openTemplateOf(window.location.pathname))
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])

  const openTemplate = useCallback(
    (hid: string) => {
      openedHere.current = true
      window.history.pushState({ ...window.history.state, gallery: hid }, '', templatePath(kind, hid))
      setOpen(hid)
    },
    [kind],
  )

  const step = useCallback(
    (hid: string) => {
      window.history.replaceState(window.history.state, '', templatePath(kind, hid) + window.location.search)
      setOpen(hid)
    },
    [kind],
  )

  const close = useCallback(() => {
    if (openedHere.current && window.history.state?.gallery) {
      openedHere.current = false
      window.history.back()
    } else {
      setOpen(null)
      void navigate(leavePath)
    }
  }, [leavePath, navigate])

  return { open, openTemplate, step, close }
}
