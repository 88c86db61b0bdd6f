import { Marked, type Tokens } from 'marked'
import { parse as parseYaml } from 'yaml'
import { ASSETS_ELEMENT_ID, CONTENT_END_ID, HYDRATION_ELEMENT_ID } from '../../shared/site.js'
import { slugify } from '../../shared/slug.js'

export interface RenderedMarkdown {
  html: string
  headings: { id: string; text: string }[]
  words: number
}

/** Links may point into the site, at a fragment, or to web and mail addresses; nothing else. */
const SAFE_HREF = /^(\/(?!\/)|#|https?:\/\/|mailto:)/i

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/

/** Splits a Markdown file into its YAML front matter and body. */
export function splitFrontMatter(source: string): { data: unknown; body: string } {
  const match = FRONT_MATTER.exec(source)
  if (!match) return { data: {}, body: source }
  return { data: parseYaml(match[1] ?? ''), body: source.slice(match[0].length) }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * Ids the page around an article already has: a heading named like one ("Main", "Site footer")
 * takes the next free one, so a link to #site-footer still leads to the footer, and the first
 * paint, held until the footer is parsed, is not let go half-way through the page.
 */
const PAGE_IDS = ['main', 'site-nav', 'footer-cta-title', CONTENT_END_ID, ASSETS_ELEMENT_ID, HYDRATION_ELEMENT_ID]

/**
 * Renders trusted Markdown from data/ to HTML. Raw HTML is escaped rather than passed through,
 * headings get ids for in-page links, and links leaving the site open safely.
 */
export function renderMarkdown(source: string): RenderedMarkdown {
  const headings: RenderedMarkdown['headings'] = []
  const used = new Set<string>(PAGE_IDS)
  const marked = new Marked({
    gfm: true,
    renderer: {
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
      heading(token: Tokens.Heading) {
        const text = this.parser.parseInline(token.tokens)
        const plain = token.text.replace(/[*_`]/g, '')
        let id = slugify(plain) || 'section'
        for (let n = 2; used.has(id); n++) id = `${slugify(plain)}-${n}`
        used.add(id)
        if (token.depth === 2) headings.push({ id, text: plain })
        return `<h${token.depth} id="${id}">${text}</h${token.depth}>\n`
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens)
        if (!SAFE_HREF.test(token.href)) return text
        const href = escapeHtml(token.href)
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : ''
        const external = /^https?:\/\//i.test(token.href)
        return external
          ? `<a href="${href}"${title} rel="noopener" target="_blank">${text}</a>`
          : `<a href="${href}"${title}>${text}</a>`
      },
      image(token: Tokens.Image) {
        return escapeHtml(token.text)
      },
    },
  })
  const html = marked.parse(source, { async: false })
  const words = source.split(/\s+/).filter(Boolean).length
  return { html, headings, words }
}
