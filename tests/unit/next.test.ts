import { describe, expect, it } from 'vitest'
import { cloneIdOf, destinationAfterAuth, safeNext } from '../../shared/accounts/next.js'

const SITE = 'https://site.example'
const APP = 'https://app.example'

describe('safeNext', () => {
  it('keeps the site\'s own paths, with their query and fragment', () => {
    expect(safeNext('/app/clone/ab12cd34', SITE)).toBe('/app/clone/ab12cd34')
    expect(safeNext('/pricing/?billing=yearly#plans', SITE)).toBe('/pricing/?billing=yearly#plans')
    expect(safeNext('https://site.example/blog/', SITE)).toBe('/blog/')
  })

  it('keeps absolute URLs of the app origin only when one is configured', () => {
    expect(safeNext('https://app.example/widgets', SITE, APP)).toBe('https://app.example/widgets')
    expect(safeNext('https://app.example/widgets', SITE)).toBeNull()
  })

  it.each([
    ['https://evil.example'],
    ['//evil.example'],
    ['/\\evil.example'],
    ['/%5Cevil.example'],
    ['/%5cevil.example'],
    ['/%2F/evil.example'],
    ['https:evil.example'],
    ['http:evil.example'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['/ok\u0000'],
    ['/ok\nLocation: https://evil.example'],
    ['\t//evil.example'],
    ['https://site.example@evil.example'],
    ['https://user:pass@site.example/'],
    ['https://app.example.evil.example/'],
    [''],
  ])('refuses %j', (raw) => {
    expect(safeNext(raw, SITE, APP)).toBeNull()
  })
})

describe('destinationAfterAuth', () => {
  it('goes to login_url, with next appended for the site\'s own targets', () => {
    expect(destinationAfterAuth('https://site.example/app/', null, SITE)).toBe('https://site.example/app/')
    expect(destinationAfterAuth('https://site.example/app/', '/app/clone/ab12cd34', SITE)).toBe('/app/?next=%2Fapp%2Fclone%2Fab12cd34')
    expect(destinationAfterAuth('https://app.example/', '/pricing/', SITE)).toBe('https://app.example/?next=%2Fpricing%2F')
  })

  it('goes straight to a next that is on the app host', () => {
    expect(destinationAfterAuth('https://app.example/', 'https://app.example/emails/7', SITE)).toBe('https://app.example/emails/7')
  })
})

describe('cloneIdOf', () => {
  it('finds the template id in a clone path', () => {
    expect(cloneIdOf('/app/clone/ab12cd34')).toBe('ab12cd34')
    expect(cloneIdOf('/app/clone-email/zz99yy88?x=1')).toBe('zz99yy88')
    expect(cloneIdOf('/pricing/')).toBeNull()
    expect(cloneIdOf(null)).toBeNull()
  })
})
