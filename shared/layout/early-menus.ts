/**
 * The header's menus between the first paint and the app's hydration, which on a slow phone is
 * a second or more: a tap on the mobile menu toggle or on a group's button must open it at once.
 *
 * Until the header takes over, a listener on the window sees those clicks first and gives the
 * header the attributes SiteHeader renders for the new state, then stops the click there, so
 * React never also acts on it. The rest of a press on those buttons (pointer, touch and mouse
 * presses, releases and cancels, a long press's context menu, a drag, the keyboard) is stopped
 * there too: while the page hydrates, React answers any such event by hydrating the whole page in that
 * one task (73 ms at 4× CPU on the countdown page), which the open menu's frame would wait for.
 * Escape closes an open menu, and the arrows on a group's button open it on a link, as the
 * header's own handlers do once hydrated.
 *
 * Texts stay as the server wrote them: a text that differs from React's own makes hydration
 * throw the server's HTML away, while differing attributes are left as they are until React's
 * first update writes its own.
 *
 * The listener comes from a script of its own (client/menus.ts) and the app holds another copy
 * of this module, so the header asks the listener to stop with an event on the window.
 */

const MOBILE_OPEN = 'is-mobile-open'
const GROUP_OPEN = 'is-open'
const MENU_BUTTON = '.nav-toggle, .nav-trigger[aria-expanded]'
const TAKE_EVENT = 'site:take-menus'

/** The mobile menu: the header's class and its toggle's state, as SiteHeader renders them. */
function setMobileOpen(header: Element, toggle: Element, open: boolean) {
  header.classList.toggle(MOBILE_OPEN, open)
  toggle.setAttribute('aria-expanded', String(open))
}

/** A group's button, the class of its list item and its panel, as SiteHeader renders them. */
function setGroupOpen(trigger: Element, open: boolean) {
  trigger.setAttribute('aria-expanded', String(open))
  trigger.parentElement?.classList.toggle(GROUP_OPEN, open)
  document.getElementById(trigger.getAttribute('aria-controls') ?? '')?.toggleAttribute('hidden', !open)
}

/** The header's menu button an event came to, and the header, if it came to one. */
function menuButtonOf(event: Event): { button: Element; header: Element } | null {
  const button = (event.target as Element).closest?.(MENU_BUTTON)
  const header = button?.closest('.site-header')
  return button && header ? { button, header } : null
}

function onClick(event: MouseEvent) {
  const menu = menuButtonOf(event)
  if (!menu) return
  const { button, header } = menu
  event.stopPropagation()
  if (button.classList.contains('nav-toggle')) {
    setMobileOpen(header, button, !header.classList.contains(MOBILE_OPEN))
    return
  }
  // One group open at a time.
  const open = button.getAttribute('aria-expanded') !== 'true'
  for (const other of header.querySelectorAll('.nav-trigger[aria-expanded="true"]')) setGroupOpen(other, false)
  setGroupOpen(button, open)
}

/** The events of a press (or a drag) on a menu button besides the click, kept from React with it. */
const PRESS_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'mousedown',
  'mouseup',
  'touchstart',
  'touchend',
  'touchcancel',
  'contextmenu',
  'dblclick',
  'auxclick',
  'keydown',
  'keypress',
  'keyup',
  'dragstart',
  'dragend',
  'drop',
] as const

function onPress(event: Event) {
  // Keys too, every one: React's own key handlers act only once the header has taken over, and
  // stopping the event cancels nothing (Tab still moves the focus, Enter and Space still click).
  if (menuButtonOf(event)) event.stopPropagation()
}

/**
 * Escape inside the header closes what it would close once hydrated: the open group the focus is
 * in, its button taking the focus back. Elsewhere in the header it closes every open group (the
 * hydrated header closes a group once the focus leaves it, which this script does not follow) and
 * the mobile menu, whose toggle takes the focus back.
 */
function onEscape(event: KeyboardEvent) {
  if (!(event.target instanceof Element)) return
  const header = event.target.closest('.site-header')
  if (!header) return
  const trigger = event.target.closest(`.nav-group.${GROUP_OPEN}`)?.querySelector<HTMLElement>(':scope > .nav-trigger')
  const groups = trigger ? [trigger] : [...header.querySelectorAll<HTMLElement>('.nav-trigger[aria-expanded="true"]')]
  for (const group of groups) setGroupOpen(group, false)
  const toggle = header.querySelector<HTMLElement>('.nav-toggle')
  const closesMobile = !trigger && toggle !== null && header.classList.contains(MOBILE_OPEN)
  if (closesMobile) setMobileOpen(header, toggle, false)
  if (!groups.length && !closesMobile) return
  // Kept from React as a press is, for the same reason.
  event.stopPropagation()
  if (trigger) trigger.focus()
  else if (closesMobile) toggle.focus()
}

/**
 * ArrowDown or ArrowUp on a group's button opens it on its first or last link, as the hydrated
 * header does (React would otherwise never see the key: a key on a menu button is kept from it).
 */
function onArrow(event: KeyboardEvent) {
  const button = menuButtonOf(event)?.button
  if (!button?.classList.contains('nav-trigger')) return
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '')
  const links = panel ? [...panel.querySelectorAll<HTMLElement>('a[href]')] : []
  if (!links.length) return
  event.preventDefault()
  for (const other of document.querySelectorAll('.site-header .nav-trigger[aria-expanded="true"]')) setGroupOpen(other, false)
  setGroupOpen(button, true)
  links.at(event.key === 'ArrowUp' ? -1 : 0)?.focus()
}

/** The keys the script answers itself until the header takes over. */
function onKeyDown(event: KeyboardEvent) {
  if (event.key === 'Escape') onEscape(event)
  else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') onArrow(event)
}

/** Opens and closes the header's menus until the header calls takeEarlyMenus. */
export function handleEarlyMenus() {
  window.addEventListener('click', onClick, true)
  // Passive: the browser need not wait for it to scroll, and nothing here cancels a default.
  for (const type of PRESS_EVENTS) window.addEventListener(type, onPress, { capture: true, passive: true })
  // Not passive: an arrow that opens a menu does not also scroll the page.
  window.addEventListener('keydown', onKeyDown, true)
  window.addEventListener(
    TAKE_EVENT,
    () => {
      window.removeEventListener('click', onClick, true)
      for (const type of PRESS_EVENTS) window.removeEventListener(type, onPress, true)
      window.removeEventListener('keydown', onKeyDown, true)
    },
    { once: true },
  )
}

export interface EarlyMenus {
  mobileOpen: boolean
  /** The label of the open group, if any. */
  openGroup: string | null
}

/** Stops the early listener and says which menus it left open, for the header to carry on from there. */
export function takeEarlyMenus(header: HTMLElement): EarlyMenus {
  window.dispatchEvent(new Event(TAKE_EVENT))
  return {
    mobileOpen: header.classList.contains(MOBILE_OPEN),
    openGroup: header.querySelector(`.nav-group.${GROUP_OPEN} > .nav-trigger`)?.textContent ?? null,
  }
}
