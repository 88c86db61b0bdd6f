/**
 * The modal focus trap (shared/components/focus-trap.ts) shared by the auth dialog, the gallery
 * preview dialog and the dashboard's live preview: Tab goes round the container's shown controls.
 * Plain stand-ins for the DOM: the trap reads only the selector's matches, their client rects,
 * the document's active element and `contains`.
 */
import { describe, expect, it } from 'vitest'
import { FOCUSABLE, focusablesIn, trapTab } from '../../shared/components/focus-trap.js'

interface FakeDocument {
  activeElement: unknown
}

function modal(names: string[], hidden: string[] = []) {
  const doc: FakeDocument = { activeElement: null }
  const asked: string[] = []
  const control = (name: string) => ({
    name,
    getClientRects: () => (hidden.includes(name) ? [] : [{}]),
    focus() {
      doc.activeElement = this
    },
  })
  const controls = names.map(control)
  const container = {
    name: 'container',
    ownerDocument: doc,
    querySelectorAll(selector: string) {
      asked.push(selector)
      return controls
    },
    contains: (element: unknown) => element === container || controls.includes(element as never),
    focus() {
      doc.activeElement = container
    },
  }
  const focused = () => (doc.activeElement as { name?: string } | null)?.name ?? null
  const press = (key: string, shiftKey = false) => {
    let prevented = false
    trapTab({ key, shiftKey, preventDefault: () => (prevented = true) }, container as unknown as HTMLElement)
    return prevented
  }
  const focus = (name: string) => controls.find((item) => item.name === name)!.focus()
  return { doc, container, controls, asked, focused, press, focus }
}

describe('focus trap', () => {
  it('takes Tab from the last control round to the first, and Shift+Tab from the first to the last', () => {
    const m = modal(['close', 'email', 'submit'])
    m.focus('submit')
    expect(m.press('Tab')).toBe(true)
    expect(m.focused()).toBe('close')
    expect(m.press('Tab', true)).toBe(true)
    expect(m.focused()).toBe('submit')
  })

  it('leaves Tab between inner controls, and every other key, to the browser', () => {
    const m = modal(['close', 'email', 'submit'])
    m.focus('email')
    expect(m.press('Tab')).toBe(false)
    expect(m.press('Tab', true)).toBe(false)
    m.focus('submit')
    expect(m.press('Enter')).toBe(false)
    expect(m.press('ArrowDown', true)).toBe(false)
    expect(m.focused()).toBe('submit')
  })

  it('brings the focus in from the container itself or from outside: Tab to the first, Shift+Tab to the last', () => {
    const m = modal(['close', 'email', 'submit'])
    m.container.focus()
    expect(m.press('Tab')).toBe(true)
    expect(m.focused()).toBe('close')
    m.doc.activeElement = { name: 'page behind' }
    expect(m.press('Tab', true)).toBe(true)
    expect(m.focused()).toBe('submit')
  })

  it('goes round the shown controls only: a hidden last control is skipped', () => {
    const m = modal(['close', 'email', 'submit', 'retry'], ['retry'])
    expect(focusablesIn(m.container as unknown as ParentNode).map((item) => (item as unknown as { name: string }).name)).toEqual(['close', 'email', 'submit'])
    m.focus('submit')
    expect(m.press('Tab')).toBe(true)
    expect(m.focused()).toBe('close')
    expect(m.press('Tab', true)).toBe(true)
    expect(m.focused()).toBe('submit')
  })

  it('does nothing in a container without controls', () => {
    const m = modal(['close'], ['close'])
    m.container.focus()
    expect(m.press('Tab')).toBe(false)
    expect(m.focused()).toBe('container')
  })

  it('asks for the shared selector unless given its own (the preview dialog adds its iframes)', () => {
    const m = modal(['close'])
    m.press('Tab')
    trapTab({ key: 'Tab', shiftKey: false, preventDefault: () => undefined }, m.container as unknown as HTMLElement, `${FOCUSABLE}, iframe`)
    expect(m.asked).toEqual([FOCUSABLE, `${FOCUSABLE}, iframe`])
  })
})
