import { useEffect, useRef, useState } from 'react'

interface Video {
  label: string
  title: string
  src: string
  poster?: string
}

/**
 * A button that plays a video in a popup. While it is open the page behind does not scroll;
 * Escape or the close button closes it, and focus returns to the button.
 */
export function VideoButton({ video }: { video: Video }) {
  const [open, setOpen] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const dialog = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    const element = dialog.current
    if (!open || !element) return
    element.showModal()
    document.documentElement.classList.add('scroll-locked')
    return () => {
      document.documentElement.classList.remove('scroll-locked')
      if (element.open) element.close()
      opener.current?.focus()
    }
  }, [open])

  return (
    <>
      <button ref={opener} type="button" className="button button-secondary video-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <span aria-hidden="true">▶</span> {video.label}
      </button>
      {open && (
        // The dialog's own Escape handling ends in `close`, which closes the popup here too.
        <dialog ref={dialog} className="video-dialog" aria-label={video.title} onClose={() => setOpen(false)}>
          <button type="button" className="dialog-close" aria-label="Close video" onClick={() => setOpen(false)}>
            ✕
          </button>
          <video src={video.src} poster={video.poster} controls autoPlay playsInline />
        </dialog>
      )}
    </>
  )
}
