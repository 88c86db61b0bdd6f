/**
 * The uploader's cards, sorted with dnd-kit: dragged with a mouse or a finger, or picked up with
 * Space or Enter, moved with the arrow keys and dropped with Space or Enter (Escape cancels),
 * with what screen readers hear on the way. Loaded once the first photo is chosen.
 */
import { useRef } from 'react'
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
} from '@dnd-kit/core'
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { UploadCard, type CardListProps, type UploadCardProps, type UploadItem } from './UploadCard.js'

/** Read with each card once drag and drop has loaded (dnd-kit links it to the card). */
export const SORTABLE_HELP: ScreenReaderInstructions = {
  draggable:
    'To move this image, press Space or Enter to pick it up, then the arrow keys to move it, and Space or Enter to drop it; Escape cancels. Delete or Backspace removes the image. With a mouse, drag it to its new place; on a touch screen, touch and hold it, then drag.',
}

function position(items: UploadItem[], id: UniqueIdentifier | undefined): number {
  return items.findIndex((item) => item.id === id) + 1
}

/**
 * What screen readers hear while a card is moved. Positions are read from `items` as they were
 * before the drop (dnd-kit announces before the list is changed). `lastOver` keeps one move from
 * being announced twice, such as the card being over its own place right after it is picked up.
 */
function announcements(items: UploadItem[], lastOver: { current: UniqueIdentifier | null }): Announcements {
  const total = items.length
  const name = (id: UniqueIdentifier) => items.find((item) => item.id === id)?.name ?? 'Image'
  return {
    onDragStart: ({ active }) => {
      lastOver.current = active.id
      return `Picked up ${name(active.id)} at position ${position(items, active.id)} of ${total}.`
    },
    onDragOver: ({ active, over }) => {
      const overId = over?.id ?? null
      if (overId === lastOver.current) return undefined
      lastOver.current = overId
      return over ? `${name(active.id)} moved to position ${position(items, over.id)} of ${total}.` : `${name(active.id)} is outside the list of images.`
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} dropped at position ${position(items, over.id)} of ${total}.`
        : `${name(active.id)} dropped outside the list; it stays at position ${position(items, active.id)} of ${total}.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled; it stays at position ${position(items, active.id)} of ${total}.`,
  }
}

export default function SortableCards({ items, listRef, listLabel, onMove, cardProps }: CardListProps) {
  const lastOver = useRef<UniqueIdentifier | null>(null)
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    // A short press first, so a swipe over the cards still scrolls the page.
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    // Space or Enter picks a card up; the arrow keys move it to the next card in that direction.
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(position(items, active.id) - 1, position(items, over.id) - 1)
  }
  return (
    <DndContext
      id="slideshow-images"
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements: announcements(items, lastOver), screenReaderInstructions: SORTABLE_HELP }}
    >
      <SortableContext items={items.map((item) => item.id)} strategy={rectSortingStrategy}>
        <ul ref={listRef} className="upload-cards" aria-label={listLabel}>
          {items.map((item, index) => (
            <SortableCard key={item.id} {...cardProps(item, index)} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  )
}

function SortableCard(props: UploadCardProps) {
  const { active, attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props.item.id })
  // The card keeps its own role and tab stop; dnd-kit adds "sortable", the pressed state and its instructions.
  const { role: _role, tabIndex: _tabIndex, ...handleAttributes } = attributes
  return (
    <UploadCard
      {...props}
      drag={{
        nodeRef: setNodeRef,
        handleRef: setActivatorNodeRef,
        handleProps: {
          ...handleAttributes,
          ...listeners,
          onKeyDown: (event) => {
            // While a card is picked up, dnd-kit has every key (Delete does not remove a card in flight).
            if (active) return
            props.onKey(event)
            if (!event.defaultPrevented) listeners?.onKeyDown?.(event)
          },
        },
        style: { transform: CSS.Translate.toString(transform), transition },
        dragging: isDragging,
      }}
    />
  )
}
