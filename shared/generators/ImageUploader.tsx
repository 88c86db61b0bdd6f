/**
 * The photo uploader: a card per chosen image, waiting its turn, prepared (reduced in the
 * browser), then sent, then ready, each step shown on its card and said to screen readers.
 * Cards are reordered with dnd-kit (SortableCards): dragged with a mouse or a finger, or picked up
 * with Space or Enter and moved with the arrow keys. They are removed with their button or
 * Delete/Backspace. A failed upload removes its card and says why.
 */
import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import {
  ACCEPT_ATTRIBUTE,
  focusAfterRemoval,
  isRemoveKey,
  MESSAGES,
  moveItem,
  SLIDESHOW_MAX_IMAGES,
  slotsLeft,
  triageFiles,
  TYPE_SNIFF_BYTES,
} from './slideshow/slideshow.js'
import type { UploadError } from './uploads-client.js'
import { CARD_STAGES, phaseAnnouncement, phaseLabel, preparingProgress, type PhotoPhase } from './slideshow/photo-state.js'
import { CARD_HELP, UploadCard, type CardListProps, type UploadCardProps, type UploadItem } from './UploadCard.js'
import { MESSAGE_MS } from './use-generator-run.js'

/** A card's photo, with where it is on its way (photo-state.ts). */
export interface PhotoItem extends UploadItem {
  phase: PhotoPhase
}

/** One thing said to screen readers, keyed to be said once. */
interface Announcement {
  key: number
  text: string
}

/** How long the code that prepares and sends photos may take to arrive. */
const UPLOADS_CLIENT_TIMEOUT_MS = 30_000

/**
 * The code that prepares and sends photos did not arrive in time, or could not be loaded. Some browsers keep a
 * failed import for as long as the page is open (older ones among those the site supports), so
 * the page asks for a reload; others load it for the next photo.
 */
class UploaderMissing extends Error {}

type UploadsClient = typeof import('./photo-sender.js')

/** The code that prepares and sends photos, once asked for; forgotten when it fails, so the next photo asks again. */
let uploadsClientLoad: Promise<UploadsClient> | null = null

/**
 * Starts fetching the code that prepares and sends photos, once the visitor reaches for the file
 * input (or drags a file over the uploader): a visitor who only reads the page never downloads
 * it, and one who chooses photos has it by the time they are chosen. A failure is told when a
 * photo needs it.
 */
function fetchUploadsClient(): Promise<UploadsClient> {
  uploadsClientLoad ??= import('./photo-sender.js').catch((error: unknown) => {
    uploadsClientLoad = null
    throw error
  })
  return uploadsClientLoad
}

/** The code that prepares and sends photos, for one photo: each has 30 s from when it was chosen for it to arrive. */
function uploadsClient(): Promise<UploadsClient> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new UploaderMissing()), UPLOADS_CLIENT_TIMEOUT_MS)
    fetchUploadsClient()
      .then(resolve, () => reject(new UploaderMissing()))
      .finally(() => clearTimeout(timer))
  })
}

/** Starts the fetch from an event handler; what it gives is taken up by uploadsClient. */
const prefetchUploadsClient = () => void fetchUploadsClient().catch(() => undefined)

/** Signing failed: the service's fault, not the file's (told apart by name, the class being in uploadsClient). */
const signingFailed = (error: unknown) => error instanceof Error && error.name === 'UploadError' && (error as UploadError).stage === 'sign'

/** A photo that cannot be used, with the message that says why (PhotoProblem, told apart by name as above). */
const photoProblem = (error: unknown): error is Error => error instanceof Error && error.name === 'PhotoProblem'

/** What the page says when a photo could not be sent. */
function uploadProblem(error: unknown): string {
  if (photoProblem(error)) return error.message
  if (error instanceof UploaderMissing) return MESSAGES.uploaderMissing
  return signingFailed(error) ? MESSAGES.signFailed : MESSAGES.uploadFailed
}

/**
 * Drag and drop, by pointer and by keyboard: loaded with the first photo, so the page opens
 * without it. Until it arrives, or if it cannot be loaded, the same cards in a plain list, whose
 * cards can be removed but not moved.
 */
const SortableCards = lazy(() => import('./SortableCards.js').catch(() => ({ default: PlainCards })))

function PlainCards({ items, listRef, listLabel, cardProps }: CardListProps) {
  return (
    <ul ref={listRef} className="upload-cards" aria-label={listLabel}>
      {items.map((item, index) => (
        <UploadCard key={item.id} {...cardProps(item, index)} />
      ))}
    </ul>
  )
}

export interface ImageUploads {
  items: PhotoItem[]
  messages: string[]
  /** The latest changes of the photos' phases, for a polite live region. */
  announcements: Announcement[]
  add(files: readonly File[]): void
  remove(id: string): void
  move(from: number, to: number): void
  /** Shows messages under the cards for 7 s. */
  say(...texts: string[]): void
}

let nextItemId = 0
let nextAnnouncement = 0
/** Announcements kept in the live region: enough for those said at about the same moment. */
const ANNOUNCEMENTS_KEPT = 4

/** A chosen file's first bytes, which say what it is (null when the file cannot be read at all). */
async function withHead(file: File) {
  const head = await file
    .slice(0, TYPE_SNIFF_BYTES)
    .arrayBuffer()
    .then((bytes) => new Uint8Array(bytes), () => null)
  return { file, name: file.name, size: file.size, head }
}

/** The uploads of a page: their cards, their order and the uploader's messages. */
export function useImageUploads(): ImageUploads {
  const [items, setItems] = useState<PhotoItem[]>([])
  const [messages, setMessages] = useState<string[]>([])
  const [announcements, setAnnouncements] = useState<Announcement[]>([])
  // The list as of the last change, for changes made before React renders again (several files at once).
  const current = useRef<PhotoItem[]>([])
  // Files chosen are looked at in the order chosen, each choice after the one before.
  const choosing = useRef<Promise<void>>(Promise.resolve())
  const uploads = useRef(new Map<string, AbortController>())
  const messageTimer = useRef<ReturnType<typeof setTimeout>>(undefined)

  const change = useCallback((update: (list: PhotoItem[]) => PhotoItem[]) => {
    current.current = update(current.current)
    setItems(current.current)
  }, [])

  /**
   * A change the visitor did not make this moment (cards added, a photo's progress): drawn in a
   * transition, which React splits into short slices, so that ten new cards on a slow phone never
   * hold the page for long.
   */
  const changeLater = useCallback((update: (list: PhotoItem[]) => PhotoItem[]) => startTransition(() => change(update)), [change])

  const say = useCallback((...texts: string[]) => {
    if (texts.length === 0) return
    setMessages((shown) => [...new Set([...shown, ...texts])])
    clearTimeout(messageTimer.current)
    messageTimer.current = setTimeout(() => setMessages([]), MESSAGE_MS)
  }, [])

  const update = useCallback((id: string, patch: Partial<PhotoItem>) => changeLater((list) => list.map((candidate) => (candidate.id === id ? { ...candidate, ...patch } : candidate))), [changeLater])

  /** Moves a photo on to `phase`, and says so once: "Photo 3 of 10: sending". */
  const enter = useCallback(
    (id: string, phase: PhotoPhase, progress: number, patch: Partial<PhotoItem> = {}) => {
      const index = current.current.findIndex((candidate) => candidate.id === id)
      const before = current.current[index]
      if (!before) return
      update(id, { ...patch, phase, stage: CARD_STAGES[phase], progress, status: phase === 'ready' ? 'ready' : 'loading' })
      if (before.phase === phase) return
      const text = phaseAnnouncement(index + 1, current.current.length, phase)
      startTransition(() => setAnnouncements((said) => [...said.slice(1 - ANNOUNCEMENTS_KEPT), { key: ++nextAnnouncement, text }]))
    },
    [update],
  )

  const remove = useCallback(
    (id: string) => {
      uploads.current.get(id)?.abort()
      uploads.current.delete(id)
      const item = current.current.find((candidate) => candidate.id === id)
      if (item?.preview) URL.revokeObjectURL(item.preview)
      change((list) => list.filter((candidate) => candidate.id !== id))
    },
    [change],
  )

  /** Prepares the photo (reduced, upright, without metadata), then sends it, saying how far each step is. */
  const send = useCallback(
    async (file: File, id: string, signal: AbortSignal) => {
      // Fetched since the visitor reached for the file input, so most often here already.
      const { preparePhoto, uploadImage } = await uploadsClient()
      if (signal.aborted) return
      const prepared = await preparePhoto(file, signal, (step) => enter(id, 'preparing', preparingProgress(step)))
      if (signal.aborted) return
      enter(id, 'sending', 0, { preview: URL.createObjectURL(prepared.thumbnail) })
      let shown = 0
      const url = await uploadImage(prepared.photo, signal, (sent) => {
        // Five percent at a time: every card is drawn again for each.
        const percent = Math.floor(sent * 20) * 5
        if (percent === shown) return
        shown = percent
        update(id, { progress: percent })
      })
      if (signal.aborted) return
      uploads.current.delete(id)
      enter(id, 'ready', 100, { url })
    },
    [enter, update],
  )

  /** Cards for the files whose first bytes are an image the page can prepare; a message for each of the rest. */
  const addChosen = useCallback(
    (chosen: Awaited<ReturnType<typeof withHead>>[]) => {
      const unreadable = chosen.filter((file) => file.head === null).map((file) => `${MESSAGES.unreadable} ${file.name}`)
      const { accepted, messages: problems } = triageFiles(
        current.current.length,
        chosen.flatMap((file) => (file.head ? [{ ...file, head: file.head }] : [])),
      )
      say(...unreadable, ...problems)
      const added = accepted.map(({ file }) => ({ file, item: { id: `image-${++nextItemId}`, name: file.name, preview: null, status: 'loading', stage: 'preparing', phase: 'waiting', progress: 0, url: null } satisfies PhotoItem }))
      changeLater((list) => [...list, ...added.map(({ item }) => item)])
      for (const { file, item } of added) {
        const controller = new AbortController()
        uploads.current.set(item.id, controller)
        send(file, item.id, controller.signal).catch((error: unknown) => {
          if (controller.signal.aborted) return
          remove(item.id)
          say(uploadProblem(error))
        })
      }
    },
    [changeLater, remove, say, send],
  )

  // What a file is, its bytes say (not its name or the type the browser gives): its first bytes
  // are read before it gets a card.
  const add = useCallback(
    (files: readonly File[]) => {
      const heads = Promise.all(files.map(withHead))
      choosing.current = choosing.current.then(() => heads).then(addChosen)
    },
    [addChosen],
  )

  const move = useCallback((from: number, to: number) => change((list) => moveItem(list, from, to)), [change])

  // Leaving the page stops the uploads and frees the previews.
  useEffect(
    () => () => {
      for (const controller of uploads.current.values()) controller.abort()
      for (const item of current.current) if (item.preview) URL.revokeObjectURL(item.preview)
      clearTimeout(messageTimer.current)
    },
    [],
  )

  return { items, messages, announcements, add, remove, move, say }
}

interface ImageUploaderProps {
  uploads: ImageUploads
  /** Id of the file input, for a label elsewhere. */
  inputId: string
}

const LIST_LABEL = 'Images in slideshow order'

export function ImageUploader({ uploads, inputId }: ImageUploaderProps) {
  const { items, messages, announcements, add, remove, move } = uploads
  const [status, setStatus] = useState('')
  const [dropping, setDropping] = useState(false)
  const list = useRef<HTMLUListElement>(null)
  // The card (or the add button) to focus once the list has been drawn again.
  const focusTarget = useRef<string | null>(null)
  const helpId = `${inputId}-help`

  useEffect(() => {
    const target = focusTarget.current
    if (target === null) return
    focusTarget.current = null
    const element = target === 'add' ? document.getElementById(inputId) : list.current?.querySelector<HTMLElement>(`[data-card="${target}"]`)
    element?.focus()
  }, [items, inputId])

  const removeAt = (index: number) => {
    const item = items[index]
    if (!item) return
    const next = focusAfterRemoval(index, items.length)
    focusTarget.current = next === null ? 'add' : items[next >= index ? next + 1 : next]!.id
    remove(item.id)
    setStatus(`${item.name} removed.`)
  }

  // Moving by keyboard is dnd-kit's (SortableCards); the card's own keys only remove it.
  const onCardKey = (event: KeyboardEvent, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !isRemoveKey(event.key)) return
    event.preventDefault()
    removeAt(index)
  }

  const cardProps = (item: UploadItem, index: number): UploadCardProps => ({
    item,
    index,
    total: items.length,
    helpId,
    state: phaseLabel(items[index]?.phase ?? 'waiting', item.progress),
    onKey: (event) => onCardKey(event, index),
    onRemove: () => removeAt(index),
  })

  const listProps: CardListProps = { items, listRef: list, listLabel: LIST_LABEL, onMove: move, cardProps }

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files')

  return (
    <div
      className={dropping ? 'image-uploader is-dropping' : 'image-uploader'}
      onDragEnter={(event) => {
        if (hasFiles(event)) prefetchUploadsClient()
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        setDropping(true)
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        setDropping(false)
        add([...event.dataTransfer.files])
      }}
    >
      {items.length > 0 && (
        <Suspense fallback={<PlainCards {...listProps} />}>
          <SortableCards {...listProps} />
        </Suspense>
      )}
      {slotsLeft(items.length) > 0 && (
        <div className="upload-add" onPointerDown={prefetchUploadsClient} onFocus={prefetchUploadsClient}>
          <input
            id={inputId}
            className="upload-input visually-hidden"
            type="file"
            accept={ACCEPT_ATTRIBUTE}
            multiple
            onChange={(event) => {
              add([...(event.target.files ?? [])])
              // The same file can be chosen again after its card was removed.
              event.target.value = ''
            }}
          />
          <label htmlFor={inputId} className="upload-button">
            <span aria-hidden="true" className="upload-plus">
              +
            </span>
            Add images
          </label>
        </div>
      )}
      <p className="field-hint">
        JPG, PNG, WebP or HEIC photos straight from a camera or phone, up to 100 megapixels each, reduced before they are sent: {items.length} of {SLIDESHOW_MAX_IMAGES} images.
      </p>
      <p className="visually-hidden" id={helpId}>
        {CARD_HELP}
      </p>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <div className="visually-hidden upload-phases" role="log" aria-live="polite">
        {announcements.map((announcement) => (
          <p key={announcement.key}>{announcement.text}</p>
        ))}
      </div>
      {messages.length > 0 && (
        // The alert around the list, not on it: a list with another role is no list to a screen reader.
        <div role="alert">
          <ul className="upload-messages">
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
