/**
 * The uploader's cards, draggable with a mouse or a finger (dnd-kit), with what screen readers
 * hear during a drag. Loaded once the first photo is chosen: until then, and for keyboard users,
 * the uploader's own list does the work.
 */
import { closestCenter, DndContext, MouseSensor, TouchSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core'
import { rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { CARD_HELP, UploadCard, type CardListProps, type UploadCardProps, type UploadItem } from './UploadCard.js'

function position(items: UploadItem[], id: UniqueIdentifier | undefined): number {
  return items.findIndex((item) => item.id === id) + 1
}

/** What screen readers hear while a card is dragged. */
function announcements(items: UploadItem[]): Announcements {
  const total = items.length
  const name = (id: UniqueIdentifier) => items.find((item) => item.id === id)?.name ?? 'Image'
  return {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, image ${position(items, active.id)} of ${total}.`,
    onDragOver: ({ active, over }) => (over ? `${name(active.id)} is over position ${position(items, over.id)} of ${total}.` : `${name(active.id)} is no longer over a position.`),
    onDragEnd: ({ active, over }) => (over ? `${name(active.id)} dropped at position ${position(items, over.id)} of ${total}.` : `${name(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  }
}

export default function SortableCards({ items, listRef, listLabel, onMove, cardProps }: CardListProps) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    // A short press first, so a swipe over the cards still scrolls the page.
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
  )
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(position(items, active.id) - 1, position(items, over.id) - 1)
  }
  return (
    <DndContext id="slideshow-images" sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements: announcements(items), screenReaderInstructions: { draggable: CARD_HELP } }}>
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
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props.item.id })
  // The card's own role, label and help text stand; dnd-kit adds "sortable" and the pressed state.
  const { role: _role, tabIndex: _tabIndex, 'aria-describedby': _help, ...handleAttributes } = attributes
  return (
    <UploadCard
      {...props}
      drag={{
        nodeRef: setNodeRef,
        handleRef: setActivatorNodeRef,
        handleProps: { ...handleAttributes, ...listeners },
        style: { transform: CSS.Translate.toString(transform), transition },
        dragging: isDragging,
      }}
    />
  )
}
