import { describe, expect, it } from 'vitest'
import { isRouterPath, pageIdAt, pages } from '../../shared/pages.js'
import { routerPageId } from '../support/router-reference.js'

/** Every page's path with its parameters filled in, in several spellings, and paths near them that name no page. */
function samplePaths(): string[] {
  const paths = new Set(['/', '', '/x', '/x/', '/p', '/P/', '/BLOG/a/b/', '/blog/a/b/c/', '/help/a/b/c/d/', '/e/a/b/', '/reset/new/x/', '/aurora/', '/Aurora', '/p/pricing/', '/p/blog/new/', '/e/x/y/', '/help/p/e/', '/reset/x/', '/blog/new/', '/start/x/', '/login/login/', '/%70ricing/', '/%50RICING', '/blog/%74ips/', '/BLOG/%74ips/%61-post/', '/p/%2F/', '/p/%66orms%2Fx/', '/reset/%6Eew/', '/%2Fpricing/', '/email-mar%E2%84%AAeting-holiday-calendar/', '/%C5%BFtart/', '/BLOG/'])
  // Each parameter filled with an ordinary value and with a word some page has, here or elsewhere.
  for (const page of pages) {
    const path = page.path ?? ''
    for (const filled of [path.replace(/:[a-z]+/gi, 'some-thing'), path.replace(/:[a-z]+/gi, 'new'), path.replace(/:[a-z]+/gi, 'p')]) {
      for (const variant of [filled, filled.toUpperCase(), filled.replace(/\/$/, ''), `${filled}extra/`, `${filled}extra/more/`]) {
        paths.add(`/${variant}`)
      }
    }
  }
  return [...paths]
}

describe('which page a path draws', () => {
  it.each(samplePaths())('%s: the same page as React Router ranking every route', (pathname) => {
    expect(pageIdAt(pathname)).toBe(routerPageId(pathname))
  })

  it('names the pages the router draws, not the not-found page nor undecodable paths', () => {
    expect(pageIdAt('/pricing/')).toBe('pricing')
    expect(pageIdAt('/blog/tips/a-post/')).toBe('blog-post')
    expect(pageIdAt('/reset/new/')).toBe('reset-new')
    expect(pageIdAt('/no-such-page/')).toBe('not-found')
    expect(isRouterPath('/p/')).toBe(true)
    expect(isRouterPath('/no-such-page/')).toBe(false)
    expect(isRouterPath('/p/%ff/')).toBe(false)
  })
})
