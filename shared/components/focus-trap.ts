/**
 * Keeping the keyboard inside a modal: Tab from its last control goes round to the first, and
 * Shift+Tab from the first to the last. Framework-free, so the site's React dialogs and the
 * dashboard's plain scripts (the live widget preview) share it.
 */

/** What Tab goes round: enabled controls, links and anything given a place in the tab order. */
export const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])'

/** The part of a key event the trap reads: a DOM event or React's. */
export interface TabKeyEvent {
  key: string
  shiftKey: boolean
  preventDefault(): void
}

/** The controls of `container` Tab goes round, in document order; those not shown are left out. */
export function focusablesIn(container: ParentNode, selector = FOCUSABLE): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(selector)].filter((element) => element.getClientRects().length > 0)
}

/**
 * Keeps Tab inside `container`: past its last control (first, with Shift) the focus goes round.
 * When the focus is on the container itself or outside it, Tab brings it to the first control
 * (Shift+Tab to the last). Other keys, and containers without controls, are left alone.
 */
export function trapTab(event: TabKeyEvent, container: HTMLElement, selector = FOCUSABLE): void {
  if (event.key !== 'Tab') return
  const items = focusablesIn(container, selector)
  const first = items[0]
  const last = items.at(-1)
  if (!first || !last) return
  const active = container.ownerDocument.activeElement
  let target: HTMLElement | null = null
  if (active === container || !container.contains(active)) target = event.shiftKey ? last : first
  else if (event.shiftKey && active === first) target = last
  else if (!event.shiftKey && active === last) target = first
  if (!target) return
  event.preventDefault()
  target.focus()
}
