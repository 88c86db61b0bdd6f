/** Saving a generator's image: the file when we have it, drawn from the <img> otherwise. */

/** An image on screen as a PNG blob, through a canvas. */
export function imageToBlob(image: HTMLImageElement): Promise<Blob> {
  if (!image.complete || image.naturalWidth === 0) return Promise.reject(new Error('Image not loaded'))
  const canvas = document.createElement('canvas')
  canvas.width = image.naturalWidth
  canvas.height = image.naturalHeight
  const context = canvas.getContext('2d')
  if (!context) return Promise.reject(new Error('toBlob returned null'))
  context.drawImage(image, 0, 0)
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob returned null'))), 'image/png'))
}

/** Starts the browser's download of a blob under a file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Puts text on the clipboard, through the older selection API where the Clipboard API is missing. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text)
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.append(area)
  area.select()
  const copied = document.execCommand('copy')
  area.remove()
  if (!copied) throw new Error('Copy refused')
}
