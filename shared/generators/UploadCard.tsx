/** One photo of the uploader: its preview, how far it is prepared and sent, and its remove button. */
import type { CSSProperties, HTMLAttributes, KeyboardEvent, Ref } from 'react'

export interface UploadItem {
  id: string
  /** The visitor's file name, for labels. */
  name: string
  /** Object URL of a small copy of the photo, once it is prepared. */
  preview: string | null
  status: 'loading' | 'ready'
  /** Being reduced in the browser, being sent, or uploaded. */
  stage: 'preparing' | 'uploading' | 'ready'
  /** Percent of the photo sent. */
  progress: number
  /** Where the image service reads the photo from, once uploaded. */
  url: string | null
}

/** What a card needs from the drag-and-drop layer, when it has loaded. */
export interface CardDrag {
  nodeRef: Ref<HTMLLIElement>
  handleRef: Ref<HTMLDivElement>
  /** Drawn over the card's own: dnd-kit's attributes and listeners, its key handler calling the card's. */
  handleProps: HTMLAttributes<HTMLDivElement>
  style: CSSProperties
  dragging: boolean
}

/**
 * Read with each card until drag and drop has loaded (or if it cannot load): then the cards are
 * removed by keyboard but not moved. Once loaded, dnd-kit's instructions (SORTABLE_HELP) are read instead.
 */
export const CARD_HELP = 'Delete or Backspace removes this image.'

/** What the list of cards is drawn from, with or without drag and drop. */
export interface CardListProps {
  items: UploadItem[]
  listRef: Ref<HTMLUListElement>
  listLabel: string
  onMove: (from: number, to: number) => void
  /** Everything a card needs but its drag handling. */
  cardProps: (item: UploadItem, index: number) => UploadCardProps
}

export interface UploadCardProps {
  item: UploadItem
  index: number
  total: number
  /** Id of the text telling how to remove cards (until drag and drop has loaded). */
  helpId: string
  /** Where its photo is, in words: "Waiting", "Preparing 50 %", "Sending 45 %", "Ready" (slideshow/photo-state.ts). */
  state: string
  /** Delete and Backspace: removes the card. */
  onKey: (event: KeyboardEvent) => void
  onRemove: () => void
}

export function UploadCard({ item, index, total, helpId, state, onKey, onRemove, drag }: UploadCardProps & { drag?: CardDrag }) {
  const loading = item.status === 'loading'
  return (
    <li ref={drag?.nodeRef} className={`upload-card${loading ? ' is-loading' : ''}${drag?.dragging ? ' is-dragging' : ''}`} style={drag?.style}>
      <div
        ref={drag?.handleRef}
        role="button"
        tabIndex={0}
        aria-describedby={helpId}
        onKeyDown={onKey}
        {...drag?.handleProps}
        className="upload-card-handle"
        data-card={item.id}
        data-stage={item.stage}
        aria-label={`Image ${index + 1} of ${total}: ${item.name}${loading ? `, ${state.toLowerCase()}` : ''}`}
        aria-busy={loading}
      >
        {item.preview && <img src={item.preview} alt="" draggable={false} />}
        {loading && <span className="upload-spinner" aria-hidden="true" />}
        {/* Shown; read with the card's name above. */}
        <span className="upload-card-state" aria-hidden="true">
          {state}
        </span>
        {loading && (
          <span className="upload-progress" aria-hidden="true">
            <span className="upload-progress-bar" style={{ transform: `scaleX(${item.progress / 100})` }} />
          </span>
        )}
      </div>
      <button type="button" className="upload-card-remove" aria-label={`Remove ${item.name}`} onClick={onRemove}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  )
}
