import { useEffect, useRef, useState } from 'react'
import { copyText, imageToBlob, saveBlob } from './image-export.js'

/** How long "Copied!" or "Error" shows after a copy. */
export const COPY_FEEDBACK_MS = 1500

/** Clears a message some time after it was set. */
function useFleeting<T>(ms: number): [T | null, (value: T) => void] {
  const [value, setValue] = useState<T | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  return [
    value,
    (next: T) => {
      clearTimeout(timer.current)
      setValue(next)
      timer.current = setTimeout(() => setValue(null), ms)
    },
  ]
}

/** A copy button with its "Copied!" or "Error" tooltip, read out by screen readers too. */
export function CopyButton({ text, label, className = 'button button-secondary' }: { text: string | (() => string); label: string; className?: string }) {
  const [feedback, show] = useFleeting<'Copied!' | 'Error'>(COPY_FEEDBACK_MS)
  const copy = async () => {
    try {
      await copyText(typeof text === 'function' ? text() : text)
      show('Copied!')
    } catch {
      show('Error')
    }
  }
  return (
    <span className="copy-action">
      <button type="button" className={className} onClick={copy}>
        {label}
      </button>
      <span className={feedback ? `copy-tooltip is-${feedback === 'Error' ? 'error' : 'ok'}` : 'copy-tooltip'} role="status">
        {feedback}
      </span>
    </span>
  )
}

interface DownloadButtonProps {
  fileName: string
  /** The image's file when the page has it (a generated GIF). */
  blob?: Blob | null
  /** Otherwise the image on screen, saved as PNG. */
  image?: () => HTMLImageElement | null
  /** Opened in a new tab when saving fails. */
  fallbackUrl: string
  label?: string
}

/**
 * Downloads the image, pressed while it is being prepared. When the browser cannot save it (the
 * image did not load, the canvas gave nothing), the image opens in a new tab instead.
 */
export function DownloadButton({ fileName, blob, image, fallbackUrl, label = 'Download' }: DownloadButtonProps) {
  const [pressed, setPressed] = useState(false)
  const download = async () => {
    if (pressed) return
    setPressed(true)
    try {
      const element = image?.()
      const file = blob ?? (element ? await imageToBlob(element) : null)
      if (!file) throw new Error('Image was not generated')
      saveBlob(file, fileName)
    } catch {
      window.open(fallbackUrl, '_blank', 'noopener')
    } finally {
      // Long enough to see the press.
      setTimeout(() => setPressed(false), 400)
    }
  }
  return (
    <button type="button" className={pressed ? 'button button-primary is-pressed' : 'button button-primary'} aria-pressed={pressed} onClick={download}>
      {label}
    </button>
  )
}
