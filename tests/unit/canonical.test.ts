import { describe, expect, it } from 'vitest'
import { canonicalPath } from '../../server/canonical.js'

describe('canonicalPath', () => {
  it('adds the trailing slash to pages', () => {
    expect(canonicalPath('/pricing')).toBe('/pricing/')
    expect(canonicalPath('/blog/lead-generation')).toBe('/blog/lead-generation/')
  })

  it('leaves canonical paths alone', () => {
    for (const path of ['/', '/pricing/', '/blog/lead-generation/', '/aurora', '/shopify-apps']) expect(canonicalPath(path)).toBeNull()
  })

  it('removes the slash from /aurora and /shopify-apps', () => {
    expect(canonicalPath('/aurora/')).toBe('/aurora')
    expect(canonicalPath('/shopify-apps/')).toBe('/shopify-apps')
  })

  it('leaves files, services and template ids alone', () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/favicon.svg', '/assets/entry-ABC.js', '/api/prices', '/app', '/giffer/text/preview', '/healthz', '/p/ab12cd34', '/e/ab12cd34', '/t/ab12cd34', '/te/ab12cd34']) {
      expect(canonicalPath(path)).toBeNull()
    }
  })

  it('collapses repeated slashes so a redirect never names another host', () => {
    expect(canonicalPath('//evil.example')).toBe('/evil.example')
    expect(canonicalPath('//evil.example/path')).toBe('/evil.example/path/')
    expect(canonicalPath('//evil.example/')).toBe('/evil.example/')
    expect(canonicalPath('/blog//x')).toBe('/blog/x/')
    expect(canonicalPath('///')).toBe('/')
  })
})
