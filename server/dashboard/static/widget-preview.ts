/**
 * Live widget preview (/app/preview/{hid}): makes the widget drawn by server/gallery/widget-render.ts
 * work as it would on a shop: fields checked, success state, code copy, countdown, close, launcher.
 *
 * Messages (only with the embedding page of this origin, docs/galleries.md):
 *   in:  {type: 'navigate', url}  — show another preview (or the same one in another theme)
 *   out: {type: 'preview:ready', hid, theme}, {type: 'preview:submitted', hid}, {type: 'preview:closed', hid}
 */

import { trapTab } from '../../../shared/components/focus-trap.js'
import { TEMPLATE_ID_SOURCE } from '../../../shared/gallery/paths.js'

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
const PREVIEW_PATH = new RegExp(`^/app/preview/${TEMPLATE_ID_SOURCE}$`)
const FIELD_CONTROLS = 'input, select, textarea'
/** How long the closing animation runs (none when the visitor asks for reduced motion). */
const CLOSING_MS = 280

function labelOf(field: Element): string {
  const label = field.querySelector('.plw-label')
  return label?.textContent ? label.textContent.replace(/\s*\(optional\)$/, '') : 'This field'
}

function ageOn(date: Date, today: Date): number {
  const age = today.getFullYear() - date.getFullYear()
  const beforeBirthday = today.getMonth() < date.getMonth() || (today.getMonth() === date.getMonth() && today.getDate() < date.getDate())
  return beforeBirthday ? age - 1 : age
}

/** What is wrong with a field as filled in, or null. */
function problemOf(field: Element): string | null {
  const radios = [...field.querySelectorAll<HTMLInputElement>('input[type=radio]')]
  if (radios.length) {
    const required = radios.some((radio) => radio.required)
    const chosen = radios.some((radio) => radio.checked)
    if (required && !chosen) return field.querySelector('.plw-stars') ? 'Choose a rating' : 'Choose one of the options'
    return null
  }
  const control = field.querySelector<Control>(FIELD_CONTROLS)
  if (!control) return null
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return control.required && !control.checked ? 'Please tick this box to continue' : null
  const value = control.value.trim()
  if (!value) return control.required ? (control instanceof HTMLSelectElement ? 'Choose an option' : `${labelOf(field)} is required`) : null
  if (control.type === 'email' && !EMAIL.test(value)) return 'Enter a valid email address'
  if (control.type === 'tel') {
    const digits = value.replace(/\D/g, '').length
    if (!/^\+?[\d\s().-]+$/.test(value) || digits < 7 || digits > 15) return 'Enter a valid phone number'
  }
  if (control.type === 'date') {
    const date = new Date(`${value}T00:00:00`)
    if (Number.isNaN(date.getTime())) return 'Enter a real date'
    const minAge = Number(control.getAttribute('data-min-age'))
    if (minAge) {
      if (date > new Date()) return 'Enter a date in the past'
      if (ageOn(date, new Date()) < minAge) return `You must be ${minAge} or older`
    }
  }
  return null
}

function setProblem(field: Element, message: string | null) {
  for (const control of field.querySelectorAll(FIELD_CONTROLS)) {
    if (message) control.setAttribute('aria-invalid', 'true')
    else control.removeAttribute('aria-invalid')
  }
  const error = field.querySelector<HTMLElement>('[data-plw-error]')
  if (!error) return
  error.textContent = message ?? ''
  error.hidden = !message
}

function startCountdown(timer: HTMLElement) {
  const ends = Date.now() + Number(timer.getAttribute('data-plw-countdown')) * 1000
  const cells = [...timer.querySelectorAll('span')]
  const pad = (value: number) => String(value).padStart(2, '0')
  const tick = () => {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000))
    const days = cells[0]?.getAttribute('data-unit') === 'days'
    const values = days
      ? [Math.floor(left / 86400), Math.floor(left / 3600) % 24, Math.floor(left / 60) % 60]
      : [Math.floor(left / 3600), Math.floor(left / 60) % 60, left % 60]
    cells.forEach((cell, index) => (cell.textContent = pad(values[index] ?? 0)))
    if (left > 0) setTimeout(tick, 1000 - (Date.now() % 1000))
  }
  tick()
}

/** One widget on its preview page: its parts, and whether it is showing. */
interface Preview {
  root: HTMLElement
  box: HTMLElement
  hid: string | null
  layout: string | null
  overlay: HTMLElement | null
  launcher: HTMLElement | null
  main: HTMLElement | null
  success: HTMLElement | null
  refusal: HTMLElement | null
  replay: HTMLElement | null
  /** Shown inside a frame of the embedding page. */
  framed: boolean
  reducedMotion: boolean
  modal: boolean
  isOpen: boolean
  /** Where the focus was when the modal took it. */
  returnFocus: Element | null
}

function previewOf(root: HTMLElement, box: HTMLElement): Preview {
  return {
    root,
    box,
    hid: root.getAttribute('data-hid'),
    layout: root.getAttribute('data-layout'),
    overlay: root.querySelector<HTMLElement>('[data-plw-overlay]'),
    launcher: root.querySelector<HTMLElement>('[data-plw-launcher]'),
    main: root.querySelector<HTMLElement>('[data-plw-main]'),
    success: root.querySelector<HTMLElement>('[data-plw-success]'),
    refusal: root.querySelector<HTMLElement>('[data-plw-refusal]'),
    replay: document.querySelector<HTMLElement>('[data-preview-replay]'),
    framed: window.parent !== window,
    reducedMotion: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
    modal: box.getAttribute('aria-modal') === 'true',
    isOpen: true,
    returnFocus: null,
  }
}

/** A message to the embedding page (only inside a frame, only to this origin). */
function tell(preview: Preview, type: string, extra: Record<string, string> = {}) {
  if (preview.framed) window.parent.postMessage({ type, hid: preview.hid, ...extra }, location.origin)
}

// A modal takes the keyboard when it shows: its first field, or the dialog itself when it has
// none (so its name is read before a choice is offered). Where the focus was comes back on close.
// Inside a frame the page never takes the focus by itself: the embedding page keeps it.
function takeFocus(preview: Preview) {
  const { box } = preview
  if (preview.framed || !preview.modal) return
  preview.returnFocus = document.activeElement
  const field = box.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea')
  if (field && field.offsetParent !== null) {
    field.focus({ preventScroll: true })
    return
  }
  box.setAttribute('tabindex', '-1')
  box.focus({ preventScroll: true })
}

function open(preview: Preview) {
  preview.root.classList.remove('plw--closing')
  preview.box.hidden = false
  if (preview.overlay) preview.overlay.hidden = false
  preview.isOpen = true
  preview.launcher?.setAttribute('aria-expanded', 'true')
  if (preview.replay) preview.replay.hidden = true
  takeFocus(preview)
}

function close(preview: Preview) {
  const { root, launcher, replay } = preview
  if (!preview.isOpen || preview.layout === 'inline') return
  preview.isOpen = false
  root.classList.add('plw--closing')
  launcher?.setAttribute('aria-expanded', 'false')
  setTimeout(
    () => {
      if (preview.isOpen) return
      preview.box.hidden = true
      if (preview.overlay) preview.overlay.hidden = true
      root.classList.remove('plw--closing')
      if (replay && !launcher) replay.hidden = false
      const target = launcher ?? replay ?? preview.returnFocus
      if (target instanceof HTMLElement && !preview.framed) target.focus()
    },
    preview.reducedMotion ? 0 : CLOSING_MS,
  )
  tell(preview, 'preview:closed')
}

/** Shows the success or refusal state in place of the form. */
function showState(preview: Preview, state: HTMLElement | null) {
  if (!state) return
  if (preview.main) preview.main.hidden = true
  if (preview.success) preview.success.hidden = state !== preview.success
  if (preview.refusal) preview.refusal.hidden = state !== preview.refusal
  state.hidden = false
  state.setAttribute('tabindex', '-1')
  if (!preview.framed) state.focus()
}

/** The form: every field checked on submit (focus to the first wrong one), then the success state. */
function watchForm(preview: Preview) {
  const form = preview.root.querySelector<HTMLFormElement>('[data-plw-form]')
  if (!form) return
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    let first: HTMLElement | null = null
    for (const field of form.querySelectorAll('[data-plw-field]')) {
      const message = problemOf(field)
      setProblem(field, message)
      if (message && !first) first = field.querySelector<HTMLElement>(FIELD_CONTROLS)
    }
    if (first) {
      first.focus()
      return
    }
    showState(preview, preview.success)
    tell(preview, 'preview:submitted')
  })
  // Editing a field clears its error.
  const clear = (event: Event) => {
    const field = event.target instanceof Element ? event.target.closest('[data-plw-field]') : null
    if (field) setProblem(field, null)
  }
  form.addEventListener('input', clear)
  form.addEventListener('change', clear)
}

function copyCode(root: HTMLElement, button: HTMLElement) {
  const code = root.querySelector('[data-plw-code]')
  const done = (text: string) => {
    button.textContent = text
    setTimeout(() => (button.textContent = 'Copy'), 1500)
  }
  if (!code?.textContent || !navigator.clipboard) return done('Error')
  navigator.clipboard.writeText(code.textContent).then(
    () => done('Copied!'),
    () => done('Error'),
  )
}

/** The widget's buttons: close (or its overlay), reveal, refuse, launcher, copy. */
function watchClicks(preview: Preview) {
  preview.root.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('button, [data-plw-overlay]') : null
    if (!target) return
    if (target.hasAttribute('data-plw-close') || target.hasAttribute('data-plw-overlay')) close(preview)
    else if (target.hasAttribute('data-plw-reveal')) {
      showState(preview, preview.success)
      tell(preview, 'preview:submitted')
    } else if (target.hasAttribute('data-plw-refuse')) showState(preview, preview.refusal)
    else if (target.hasAttribute('data-plw-launcher')) {
      if (preview.isOpen) close(preview)
      else open(preview)
    } else if (target.hasAttribute('data-plw-copy')) copyCode(preview.root, target)
  })
  preview.replay?.addEventListener('click', () => open(preview))
}

/** Escape closes; a modal keeps the keyboard inside while it is open. */
function watchKeys(preview: Preview) {
  document.addEventListener('keydown', (event) => {
    if (!preview.isOpen) return
    if (event.key === 'Escape') close(preview)
    else if (preview.modal) trapTab(event, preview.box)
  })
}

/** The embedding page steers the preview; only this origin's, and only from the parent. */
function followParent(preview: Preview) {
  const { root } = preview
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== location.origin || event.source !== window.parent) return
    const data = event.data as { type?: unknown; url?: unknown } | null
    if (!data || data.type !== 'navigate' || typeof data.url !== 'string') return
    let target: URL
    try {
      target = new URL(data.url, location.href)
    } catch {
      return
    }
    if (target.origin !== location.origin || !PREVIEW_PATH.test(target.pathname)) return
    if (target.pathname === location.pathname) {
      // The same template: switch the theme in place, or show the widget again.
      const theme = target.searchParams.get('theme') === 'dark' && root.hasAttribute('data-themed') ? 'dark' : 'light'
      root.setAttribute('data-theme', theme)
      document.documentElement.setAttribute('data-theme', theme)
      try {
        history.replaceState(null, '', target.pathname + target.search)
      } catch {
        // WebKit lets a sandboxed document change only its address's fragment: the theme switches all the same.
      }
      if (!preview.isOpen) open(preview)
      tell(preview, 'preview:ready', { theme })
      return
    }
    // replace(): the frame's moves must not pile up in the embedding page's history.
    location.replace(target.pathname + target.search)
  })
}

function livePreview(root: HTMLElement, box: HTMLElement) {
  const preview = previewOf(root, box)
  watchForm(preview)
  watchClicks(preview)
  takeFocus(preview)
  watchKeys(preview)
  const timer = root.querySelector<HTMLElement>('[data-plw-countdown]')
  if (timer) startCountdown(timer)
  followParent(preview)
  tell(preview, 'preview:ready', { theme: root.getAttribute('data-theme') === 'dark' ? 'dark' : 'light' })
}

const root = document.querySelector<HTMLElement>('[data-plw]')
const box = root?.querySelector<HTMLElement>('[data-plw-box]')
if (root && box) livePreview(root, box)

