import { describe, expect, it } from 'vitest'
import { resolveWidgetPath, widgetListingPath, type WidgetPathIndex } from '../../server/gallery/widget-path.js'
import { loadWidgetCatalog } from '../../server/gallery/widget-catalog.js'
import { contentDir } from '../../server/project-root.js'

const index: WidgetPathIndex = {
  groups: [
    { slug: 'halloween', subs: [] },
    { slug: 'forms', subs: [{ slug: 'discounts' }, { slug: 'feedback' }] },
    // Eight lowercase letters: reads like a template id, but a group slug always wins.
    { slug: 'messages', subs: [{ slug: 'sales' }, { slug: 'whatsapp' }] },
    { slug: 'abcdefgh', subs: [] },
  ],
  listingOf: (hid) => ({ k3m9x2a7: { group: 'forms', sub: 'discounts' }, abcdefg1: { group: 'halloween', sub: null } })[hid],
}

describe('resolveWidgetPath', () => {
  it('is the gallery root without segments', () => {
    expect(resolveWidgetPath([], index)).toEqual({ kind: 'root' })
    expect(resolveWidgetPath([''], index)).toEqual({ kind: 'root' })
  })

  it('lists a group without subs, and a group’s sub', () => {
    expect(resolveWidgetPath(['halloween'], index)).toEqual({ kind: 'listing', group: 'halloween', sub: null })
    expect(resolveWidgetPath(['forms', 'feedback'], index)).toEqual({ kind: 'listing', group: 'forms', sub: 'feedback' })
  })

  it('sends a group with subs to its first sub', () => {
    expect(resolveWidgetPath(['forms'], index)).toEqual({ kind: 'redirect', location: '/p/forms/discounts/' })
    expect(resolveWidgetPath(['messages'], index)).toEqual({ kind: 'redirect', location: '/p/messages/sales/' })
  })

  it('lets a known 8-letter group slug win over a template id', () => {
    expect(resolveWidgetPath(['abcdefgh'], index)).toEqual({ kind: 'listing', group: 'abcdefgh', sub: null })
    expect(resolveWidgetPath(['messages', 'whatsapp'], index)).toEqual({ kind: 'listing', group: 'messages', sub: 'whatsapp' })
  })

  it('opens a known template id over its listing, and does not find an unknown one', () => {
    expect(resolveWidgetPath(['k3m9x2a7'], index)).toEqual({ kind: 'template', hid: 'k3m9x2a7', group: 'forms', sub: 'discounts' })
    expect(resolveWidgetPath(['zzzz9999'], index)).toEqual({ kind: 'not-found' })
    expect(resolveWidgetPath(['bcdefghi'], index)).toEqual({ kind: 'not-found' })
    expect(resolveWidgetPath(['k3m9x2a7', 'extra'], index)).toEqual({ kind: 'redirect', location: '/p/k3m9x2a7' })
  })

  it('sends unknown or malformed paths to the nearest listing', () => {
    expect(resolveWidgetPath(['forms', 'nope'], index)).toEqual({ kind: 'redirect', location: '/p/forms/discounts/' })
    expect(resolveWidgetPath(['halloween', 'nope'], index)).toEqual({ kind: 'redirect', location: '/p/halloween/' })
    expect(resolveWidgetPath(['forms', 'feedback', 'deeper'], index)).toEqual({ kind: 'redirect', location: '/p/forms/feedback/' })
    expect(resolveWidgetPath(['Forms', 'Feedback'], index)).toEqual({ kind: 'redirect', location: '/p/forms/feedback/' })
    expect(resolveWidgetPath(['HALLOWEEN'], index)).toEqual({ kind: 'redirect', location: '/p/halloween/' })
    expect(resolveWidgetPath(['no-such-group'], index)).toEqual({ kind: 'redirect', location: '/p/' })
    expect(resolveWidgetPath(['K3M9X2A7'], index)).toEqual({ kind: 'redirect', location: '/p/' })
  })

  it('builds listing paths', () => {
    expect(widgetListingPath()).toBe('/p/')
    expect(widgetListingPath('forms', 'discounts')).toBe('/p/forms/discounts/')
    expect(widgetListingPath('halloween', null)).toBe('/p/halloween/')
  })
})

describe('resolveWidgetPath on the real gallery', () => {
  const catalog = loadWidgetCatalog(contentDir)

  it('treats the 8-letter slugs of the data as groups and subs, never as ids', () => {
    const eightLetters = catalog.groups.filter((group) => /^[a-z]{8}$/.test(group.slug))
    expect(eightLetters.map((group) => group.slug)).toContain('messages')
    for (const group of eightLetters) expect(resolveWidgetPath([group.slug], catalog.pathIndex).kind).not.toBe('not-found')
    expect(resolveWidgetPath(['messages', 'whatsapp'], catalog.pathIndex)).toEqual({ kind: 'listing', group: 'messages', sub: 'whatsapp' })
  })

  it('opens every template over its own listing', () => {
    for (const template of catalog.templates) {
      expect(resolveWidgetPath([template.id], catalog.pathIndex)).toEqual({ kind: 'template', hid: template.id, group: template.group, sub: template.sub })
    }
  })
})
