import { describe, expect, it } from 'vitest'
import { renderMarkdown, splitFrontMatter } from '../../server/content/markdown.js'

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const { html } = renderMarkdown('Hello <script>alert(1)</script>\n\n<iframe src="x"></iframe>')
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<iframe')
    expect(html).toContain('&#60;script&#62;')
  })

  it("gives a heading named like one of the page's own landmarks another id", () => {
    const { html, headings } = renderMarkdown('## Site footer\n\n## Main\n\n### Site nav')
    expect(html).toContain('<h2 id="site-footer-2">')
    expect(html).toContain('<h2 id="main-2">')
    expect(html).toContain('<h3 id="site-nav-2">')
    expect(headings).toEqual([
      { id: 'site-footer-2', text: 'Site footer' },
      { id: 'main-2', text: 'Main' },
    ])
  })

  it('gives headings unique ids and lists the second-level ones', () => {
    const { html, headings } = renderMarkdown('## Getting started\n\ntext\n\n## Getting started\n\n### Detail')
    expect(html).toContain('<h2 id="getting-started">')
    expect(html).toContain('<h2 id="getting-started-2">')
    expect(headings).toEqual([
      { id: 'getting-started', text: 'Getting started' },
      { id: 'getting-started-2', text: 'Getting started' },
    ])
  })

  it('opens external links safely and keeps internal ones plain', () => {
    const { html } = renderMarkdown('[Shopify](https://apps.shopify.com/poplift) and [pricing](/pricing/)')
    expect(html).toContain('<a href="https://apps.shopify.com/poplift" rel="noopener" target="_blank">Shopify</a>')
    expect(html).toContain('<a href="/pricing/">pricing</a>')
  })

  it('renders links with unsafe schemes as plain text', () => {
    const { html } = renderMarkdown('[x](javascript:alert(1))')
    expect(html).toBe('<p>x</p>\n')
  })
})

describe('splitFrontMatter', () => {
  it('reads YAML front matter and returns the body', () => {
    expect(splitFrontMatter('---\ntitle: Hi\ndate: "2025-01-02"\n---\nBody')).toEqual({ data: { title: 'Hi', date: '2025-01-02' }, body: 'Body' })
    expect(splitFrontMatter('No front matter')).toEqual({ data: {}, body: 'No front matter' })
  })
})
