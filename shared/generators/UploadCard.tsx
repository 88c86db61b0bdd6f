/** One photo of the uploader: its preview, a loading state until uploaded, and its remove button. */
import type { CSSProperties, HTMLAttributes, KeyboardEvent, Ref } from 'react'

export interface UploadItem {
  id: string
  /** The visitor's file name, for labels. */
  name: string
  /** Object URL of the chosen file, shown while it uploads and after. */
  preview: string
  status: 'loading' | 'ready'
  /** Where the image service reads the photo from, once uploaded. */
  url: string | null
}

/** What a card needs from the drag-and-drop layer, when it has loaded. */
export interface CardDrag {
  nodeRef: Ref<HTMLLIElement>
  handleRef: Ref<HTMLDivElement>
  handleProps: HTMLAttributes<HTMLDivElement>
  style: CSSProperties
  dragging: boolean
}

/** How to move and remove a card, read with each card. */
export const CARD_HELP = 'Press the left or right arrow key to move this image, Delete to remove it. With a mouse or a finger, drag it to its new place.'

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
  /** Id of the text telling how to move and remove cards. */
  helpId: string
  onKey: (event: KeyboardEvent) => void
  onRemove: () => void
}

export function UploadCard({ item, index, total, helpId, onKey, onRemove, drag }: UploadCardProps & { drag?: CardDrag }) {
  const loading = item.status === 'loading'
  return (
    <li ref={drag?.nodeRef} className={`upload-card${loading ? ' is-loading' : ''}${drag?.dragging ? ' is-dragging' : ''}`} style={drag?.style}>
      <div
        ref={drag?.handleRef}
        role="button"
        tabIndex={0}
        {...drag?.handleProps}
        className="upload-card-handle"
        data-card={item.id}
        aria-label={`Image ${index + 1} of ${total}: ${item.name}${loading ? ', uploading' : ''}`}
        aria-describedby={helpId}
        aria-busy={loading}
        onKeyDown={onKey}
      >
        <img src={item.preview} alt="" draggable={false} />
        {loading && <span className="upload-spinner" aria-hidden="true" />}
      </div>
      <button type="button" className="upload-card-remove" aria-label={`Remove ${item.name}`} onClick={onRemove}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  )
}
