/**
 * An email template (shared/gallery/email-schema.ts) as a sendable email: the HTML part
 * through MJML (tables, inline styles, Outlook conditionals, a 600 px column that stacks on
 * phones) and the plain-text part from the same content. Deterministic: the same template gives
 * byte-identical output. Images point at `{{assets}}/file`; whoever serves the email replaces
 * that mark with the absolute address of data/generated/emails/assets/.
 *
 * Dark mode is authored, not left to the client's inversion: every coloured element carries a
 * class naming its role (surface, band, text, muted, accent, button, border), and one style
 * sheet maps the roles to the template's dark palette under `prefers-color-scheme: dark`, again
 * for Outlook.com under `[data-ogsc]` / `[data-ogsb]`.
 */
import mjml2html from 'mjml'
import {
  EMAIL_FONTS,
  type EmailBlock,
  type EmailCta,
  type EmailPalette,
  type EmailProduct,
  type EmailTemplate,
} from '../../shared/gallery/email-schema.js'

export const EMAIL_ASSETS_PREFIX = '{{assets}}/'
/** Plain-text lines are wrapped at this width. */
export const TEXT_WIDTH = 78

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const img = (file: string) => `${EMAIL_ASSETS_PREFIX}${file}`

interface Ctx {
  t: EmailTemplate
  p: EmailPalette
  heading: string
  body: string
  radius: number
  /** Inside the card wrapper, sections cannot be full width. */
  card: boolean
}

type Role = 'text' | 'muted' | 'accent' | 'band-text' | 'button-text'
const roleColour = (p: EmailPalette, role: Role) =>
  ({ text: p.text, muted: p.muted, accent: p.accent, 'band-text': p.bandText, 'button-text': p.buttonText })[role]

interface TextOptions {
  role?: Role
  size?: number
  align?: 'left' | 'center' | 'right'
  font?: 'heading' | 'body' | 'mono'
  weight?: number
  padding?: string
  lineHeight?: number
  upper?: boolean
  spacing?: number
  extraClass?: string
}

function text(c: Ctx, html: string, o: TextOptions = {}): string {
  const role = o.role ?? 'text'
  const font = o.font === 'heading' ? c.heading : o.font === 'mono' ? EMAIL_FONTS.courier : c.body
  const attrs = [
    `css-class="em-${role}${o.extraClass ? ` ${o.extraClass}` : ''}"`,
    `color="${roleColour(c.p, role)}"`,
    `font-family="${esc(font)}"`,
    `font-size="${o.size ?? 16}px"`,
    `line-height="${o.lineHeight ?? 1.6}"`,
    `align="${o.align ?? 'left'}"`,
    `padding="${o.padding ?? '0 32px 16px'}"`,
  ]
  if (o.weight) attrs.push(`font-weight="${o.weight}"`)
  if (o.upper) attrs.push('text-transform="uppercase"')
  if (o.spacing) attrs.push(`letter-spacing="${o.spacing}px"`)
  return `<mj-text ${attrs.join(' ')}>${html}</mj-text>`
}

const link = (c: Ctx, cta: EmailCta) => `<a class="em-link" href="${esc(cta.url)}" style="color:${c.p.accent};font-weight:bold;text-decoration:underline;">${esc(cta.text)}</a>`

function button(c: Ctx, cta: EmailCta, align: 'left' | 'center' = 'center', padding = '8px 32px 24px'): string {
  return `<mj-button css-class="em-btn" href="${esc(cta.url)}" background-color="${c.p.button}" color="${c.p.buttonText}" font-family="${esc(c.heading)}" font-size="16px" font-weight="bold" border-radius="${Math.min(c.radius, 26)}px" inner-padding="14px 30px" align="${align}" padding="${padding}">${esc(cta.text)}</mj-button>`
}

function section(c: Ctx, inner: string, o: { band?: boolean; padding?: string; direction?: 'rtl' } = {}): string {
  const bg = o.band ? c.p.band : c.p.surface
  const attrs = [`css-class="${o.band ? 'em-band' : 'em-surface'}"`, `background-color="${bg}"`, `padding="${o.padding ?? '0'}"`]
  if (!c.card) attrs.push('full-width="full-width"')
  if (o.direction) attrs.push(`direction="${o.direction}"`)
  return `<mj-section ${attrs.join(' ')}>${inner}</mj-section>`
}

const column = (inner: string, width?: string, extra = '') => `<mj-column${width ? ` width="${width}"` : ''}${extra}>${inner}</mj-column>`
const headline = (c: Ctx, words: string, size: number, role: Role = 'text', align: 'left' | 'center' = 'left', padding = '0 32px 12px') =>
  text(c, esc(words), { role, size, font: 'heading', weight: 700, lineHeight: 1.2, align, padding, upper: c.t.style.headlineCase === 'upper', extraClass: size >= 28 ? 'em-h1' : undefined })

function image(c: Ctx, file: string, alt: string, o: { width?: number; href?: string; padding?: string; radius?: number } = {}): string {
  const attrs = [`src="${img(file)}"`, `alt="${esc(alt)}"`, `padding="${o.padding ?? '0 32px 16px'}"`, `border-radius="${o.radius ?? c.radius}px"`]
  if (o.width) attrs.push(`width="${o.width}px"`)
  if (o.href) attrs.push(`href="${esc(o.href)}"`)
  return `<mj-image ${attrs.join(' ')} />`
}

function priceHtml(c: Ctx, product: { price: string; oldPrice?: string | undefined }): string {
  const old = product.oldPrice ? ` <s class="em-muted-inline" style="color:${c.p.muted};font-weight:normal;">${esc(product.oldPrice)}</s>` : ''
  return `<span class="em-accent-inline" style="color:${c.p.accent};font-weight:bold;">${esc(product.price)}</span>${old}`
}

function productCell(c: Ctx, product: EmailProduct, columns: number): string {
  const pad = columns === 3 ? '0 8px' : '0 10px'
  return [
    image(c, product.image, product.alt, { href: product.url, padding: `0 ${columns === 3 ? 8 : 10}px 10px` }),
    text(c, esc(product.name), { size: 15, weight: 700, font: 'heading', padding: `0 ${columns === 3 ? 8 : 10}px 2px`, lineHeight: 1.3, align: 'center' }),
    text(c, priceHtml(c, product), { size: 15, padding: `0 ${columns === 3 ? 8 : 10}px 6px`, align: 'center' }),
    text(c, `<a class="em-link" href="${esc(product.url)}" style="color:${c.p.accent};text-decoration:underline;">Shop now</a>`, { size: 14, padding: `0 ${pad.split(' ')[1]} 20px`, align: 'center', role: 'accent' }),
  ].join('')
}

type BlockOf<K extends EmailBlock['type']> = Extract<EmailBlock, { type: K }>
type BlockRenderers = { [K in EmailBlock['type']]: (c: Ctx, block: BlockOf<K>) => string }

const buttonSection = (c: Ctx, cta: EmailCta) => section(c, column(button(c, cta)), { padding: '0 0 8px' })

function heroBlock(c: Ctx, block: BlockOf<'hero'>): string {
  const { p } = c
  const role: Role = block.onBand ? 'band-text' : 'text'
  const align = c.t.style.headerAlign
  const parts: string[] = []
  const picture = block.image ? image(c, block.image, block.alt ?? '', { padding: block.imagePlace === 'top' ? '0 0 24px' : '8px 32px 24px', radius: block.imagePlace === 'top' ? 0 : c.radius }) : ''
  if (block.imagePlace === 'top') parts.push(picture)
  if (block.kicker) parts.push(text(c, esc(block.kicker), { role: block.onBand ? 'band-text' : 'accent', size: 13, weight: 700, upper: true, spacing: 2, align, padding: '0 32px 8px' }))
  parts.push(headline(c, block.headline, 34, role, align))
  if (block.text) parts.push(text(c, esc(block.text), { role, size: 17, align }))
  if (block.imagePlace === 'below') parts.push(picture)
  if (block.cta) parts.push(block.onBand ? button({ ...c, p: { ...p, button: p.bandText, buttonText: p.band } }, block.cta, align).replace('css-class="em-btn"', 'css-class="em-btn-inverse"') : button(c, block.cta, align))
  return section(c, column(parts.join('')), { band: block.onBand, padding: block.image && block.imagePlace === 'top' ? '0 0 8px' : '32px 0 8px' })
}

function textBlock(c: Ctx, block: BlockOf<'text'>): string {
  return section(
    c,
    column(
      (block.heading ? headline(c, block.heading, 22, 'text', block.align) : '') +
        block.paragraphs.map((paragraph) => text(c, esc(paragraph), { align: block.align })).join(''),
    ),
    { padding: '16px 0 8px' },
  )
}

function productsBlock(c: Ctx, block: BlockOf<'products'>): string {
  const rows: string[] = []
  if (block.heading) rows.push(section(c, column(headline(c, block.heading, 24, 'text', 'center', '8px 32px 16px')), { padding: '16px 0 0' }))
  const per = block.columns
  for (let start = 0; start < block.items.length; start += per) {
    const items = block.items.slice(start, start + per)
    const width = per === 2 ? '50%' : '33.33%'
    const cells = items.map((item) => column(productCell(c, item, per), width)).join('')
    // Two per row stay side by side on phones; three per row stack.
    rows.push(section(c, per === 2 ? `<mj-group>${cells}</mj-group>` : cells, { padding: per === 2 ? '0 22px' : '0 16px' }))
  }
  if (block.cta) rows.push(buttonSection(c, block.cta))
  return rows.join('')
}

function spotlightBlock(c: Ctx, block: BlockOf<'spotlight'>): string {
  const { product } = block
  const picture = column(image(c, product.image, product.alt, { href: product.url, padding: '0 16px 16px 32px' }), '50%')
  const words = column(
    [
      block.kicker ? text(c, esc(block.kicker), { role: 'accent', size: 13, weight: 700, upper: true, spacing: 2, padding: '8px 32px 6px 16px' }) : '',
      headline(c, product.name, 24, 'text', 'left', '0 32px 8px 16px'),
      text(c, priceHtml(c, product), { size: 18, padding: '0 32px 10px 16px' }),
      text(c, esc(block.text), { size: 15, padding: '0 32px 8px 16px' }),
      button(c, block.cta, 'left', '4px 32px 16px 16px'),
    ].join(''),
    '50%',
  )
  return section(c, picture + words, { padding: '24px 0 8px', ...(block.side === 'right' ? { direction: 'rtl' as const } : {}) })
}

function couponBlock(c: Ctx, block: BlockOf<'coupon'>): string {
  const { p } = c
  const inner = [
    text(c, esc(block.label), { role: 'muted', size: 13, weight: 700, upper: true, spacing: 2, align: 'center', padding: '20px 24px 4px' }),
    text(c, esc(block.value), { size: 40, weight: 700, font: 'heading', align: 'center', lineHeight: 1.1, padding: '0 24px 12px', extraClass: 'em-h1' }),
    text(c, `<span class="em-code" style="display:inline-block;border:2px dashed ${p.accent};padding:10px 18px;border-radius:${Math.min(c.radius, 10)}px;color:${p.accent};letter-spacing:3px;">${esc(block.code)}</span>`, {
      role: 'accent',
      size: 22,
      weight: 700,
      font: 'mono',
      align: 'center',
      padding: '4px 24px 14px',
    }),
    text(c, esc(block.text), { size: 15, align: 'center', padding: '0 24px 8px' }),
    block.expires ? text(c, esc(block.expires), { role: 'muted', size: 13, align: 'center', padding: '0 24px 12px' }) : '',
    block.cta ? button(c, block.cta, 'center', '4px 24px 20px') : '',
  ].join('')
  return section(
    c,
    column(inner, undefined, ` css-class="em-coupon" border="2px solid ${p.border}" border-radius="${c.radius}px" background-color="${p.surface}" padding="4px"`),
    { band: true, padding: '24px 32px' },
  )
}

function countdownBlock(c: Ctx, block: BlockOf<'countdown'>): string {
  const units = block.units
    .map((unit) =>
      column(
        text(c, esc(unit.value.padStart(2, '0')), { role: 'band-text', size: 40, weight: 700, font: 'heading', align: 'center', lineHeight: 1.1, padding: '0 4px' }) +
          text(c, esc(unit.label), { role: 'band-text', size: 12, upper: true, spacing: 2, align: 'center', padding: '0 4px 4px' }),
      ),
    )
    .join('')
  return [
    section(c, column(text(c, esc(block.label), { role: 'band-text', size: 14, weight: 700, upper: true, spacing: 2, align: 'center', padding: '24px 24px 8px' })), { band: true }),
    section(c, `<mj-group>${units}</mj-group>`, { band: true, padding: '0 48px' }),
    section(c, column(text(c, esc(block.note), { role: 'band-text', size: 14, align: 'center', padding: '8px 24px 24px' })), { band: true }),
  ].join('')
}

function articlesBlock(c: Ctx, block: BlockOf<'articles'>): string {
  const rows: string[] = []
  if (block.heading) rows.push(section(c, column(headline(c, block.heading, 24)), { padding: '24px 0 0' }))
  block.items.forEach((item, index) => {
    const words = [
      headline(c, item.title, 19, 'text', 'left', item.image ? '0 32px 6px 12px' : '0 32px 6px'),
      text(c, esc(item.text), { size: 15, padding: item.image ? '0 32px 8px 12px' : '0 32px 8px' }),
      text(c, link(c, item.link), { size: 15, padding: item.image ? '0 32px 16px 12px' : '0 32px 16px', role: 'accent' }),
    ].join('')
    const body = item.image
      ? column(image(c, item.image, item.alt ?? item.title, { href: item.link.url, padding: '0 12px 16px 32px' }), '38%') + column(words, '62%')
      : column(words)
    const rule = index < block.items.length - 1 ? section(c, column(`<mj-divider css-class="em-rule" border-color="${c.p.border}" border-width="1px" padding="0 32px 16px" />`)) : ''
    rows.push(section(c, body, { padding: '8px 0 0' }) + rule)
  })
  return rows.join('')
}

function stepsBlock(c: Ctx, block: BlockOf<'steps'>): string {
  const { p } = c
  const rows: string[] = []
  if (block.heading) rows.push(section(c, column(headline(c, block.heading, 22)), { padding: '16px 0 0' }))
  block.items.forEach((step, index) => {
    const badge = text(c, `<span class="em-badge" style="display:inline-block;width:36px;height:36px;line-height:36px;border-radius:18px;background:${p.accent};color:${p.surface};text-align:center;font-weight:bold;">${index + 1}</span>`, {
      size: 16,
      align: 'center',
      padding: '0 0 12px 24px',
    })
    const words = text(c, `<strong>${esc(step.title)}</strong><br>${esc(step.text)}`, { size: 15, padding: '0 32px 16px 8px', lineHeight: 1.5 })
    rows.push(section(c, `<mj-group>${column(badge, '16%')}${column(words, '84%')}</mj-group>`, { padding: '0' }))
  })
  return rows.join('')
}

function perksBlock(c: Ctx, block: BlockOf<'perks'>): string {
  const cells = block.items
    .map((perk) =>
      column(
        text(c, esc(perk.title), { role: 'band-text', size: 15, weight: 700, font: 'heading', align: 'center', padding: '0 12px 4px', lineHeight: 1.3 }) +
          text(c, esc(perk.text), { role: 'band-text', size: 13, align: 'center', padding: '0 12px 12px', lineHeight: 1.5 }),
      ),
    )
    .join('')
  return section(c, cells, { band: true, padding: '20px 20px 8px' })
}

function quoteBlock(c: Ctx, block: BlockOf<'quote'>): string {
  return section(
    c,
    column(
      text(c, `“${esc(block.text)}”`, { size: 20, font: 'heading', align: 'center', lineHeight: 1.5, padding: '0 40px 10px' }) +
        text(c, esc(block.author), { role: 'muted', size: 14, align: 'center', padding: '0 40px 8px' }),
    ),
    { padding: '24px 0 16px' },
  )
}

function ratingBlock(c: Ctx, block: BlockOf<'rating'>): string {
  const stars = [1, 2, 3, 4, 5]
    .map((n) => `<a class="em-star" href="${esc(`${block.url}?rating=${n}`)}" title="${n} of 5" style="color:${c.p.accent};text-decoration:none;font-size:40px;line-height:1;padding:0 4px;">&#9733;</a>`)
    .join('')
  return section(
    c,
    column(
      [
        block.product ? image(c, block.product.image, block.product.alt, { width: 220, href: block.product.url, padding: '0 32px 16px' }) : '',
        block.product ? text(c, esc(block.product.name), { role: 'muted', size: 14, align: 'center', padding: '0 32px 12px' }) : '',
        headline(c, block.heading, 24, 'text', 'center'),
        text(c, esc(block.text), { align: 'center' }),
        text(c, stars, { role: 'accent', size: 40, align: 'center', lineHeight: 1.2, padding: '0 32px 4px' }),
        text(c, 'Tap a star to rate: 1 is poor, 5 is excellent', { role: 'muted', size: 13, align: 'center', padding: '0 32px 24px' }),
      ].join(''),
    ),
    { padding: '24px 0 8px' },
  )
}

function cartBlock(c: Ctx, block: BlockOf<'cart'>): string {
  const rows: string[] = []
  if (block.heading) rows.push(section(c, column(headline(c, block.heading, 22)), { padding: '16px 0 0' }))
  for (const item of block.items) {
    rows.push(
      section(
        c,
        `<mj-group>${column(image(c, item.image, item.alt, { padding: '0 8px 12px 32px' }), '28%')}${column(
          text(c, esc(item.name), { size: 16, weight: 700, font: 'heading', padding: '8px 8px 2px', lineHeight: 1.3 }) +
            text(c, `${esc(item.detail)} · Qty ${item.quantity}`, { role: 'muted', size: 14, padding: '0 8px 8px', lineHeight: 1.4 }),
          '48%',
        )}${column(text(c, esc(item.price), { size: 16, weight: 700, align: 'right', padding: '8px 32px 8px 0' }), '24%')}</mj-group>`,
      ),
    )
  }
  rows.push(
    section(
      c,
      column(
        `<mj-divider css-class="em-rule" border-color="${c.p.border}" border-width="1px" padding="0 32px 12px" />` +
          text(c, `Total <strong>${esc(block.total)}</strong>`, { size: 18, align: 'right', padding: '0 32px 12px' }) +
          (block.note ? text(c, esc(block.note), { role: 'muted', size: 14, padding: '0 32px 8px' }) : '') +
          button(c, block.cta),
      ),
    ),
  )
  return rows.join('')
}

/** One renderer per kind of block; the type makes a new kind in the schema fail here until it has one. */
const BLOCK_RENDERERS: BlockRenderers = {
  announcement: (c, block) => section(c, column(text(c, esc(block.text), { role: 'band-text', size: 13, align: 'center', padding: '10px 24px', weight: 700, spacing: 0.5 })), { band: true }),
  hero: heroBlock,
  text: textBlock,
  button: (c, block) => buttonSection(c, block.cta),
  image: (c, block) => section(c, column(image(c, block.image, block.alt, { href: block.url, padding: '8px 32px 16px' }))),
  products: productsBlock,
  spotlight: spotlightBlock,
  coupon: couponBlock,
  countdown: countdownBlock,
  articles: articlesBlock,
  steps: stepsBlock,
  perks: perksBlock,
  quote: quoteBlock,
  rating: ratingBlock,
  cart: cartBlock,
}

function renderBlock(c: Ctx, block: EmailBlock): string {
  // TypeScript cannot pair the looked-up renderer with the block's own kind, so widen it.
  const render = BLOCK_RENDERERS[block.type] as (c: Ctx, block: EmailBlock) => string
  return render(c, block)
}

function header(c: Ctx): string {
  const { brand, style } = c.t
  const wordmark = text(c, esc(brand.name), { size: 26, weight: 700, font: 'heading', spacing: 1, align: style.headerAlign, padding: brand.tagline ? '24px 32px 0' : '24px 32px 16px', lineHeight: 1.2 })
  const tagline = brand.tagline ? text(c, esc(brand.tagline), { role: 'muted', size: 13, align: style.headerAlign, padding: '2px 32px 16px' }) : ''
  const nav = brand.nav.length
    ? text(
        c,
        brand.nav.map((item) => `<a class="em-nav" href="${esc(item.url)}" style="color:${c.p.text};text-decoration:none;">${esc(item.text)}</a>`).join('&nbsp;&nbsp;·&nbsp;&nbsp;'),
        { size: 14, align: style.headerAlign === 'left' ? 'right' : 'center', padding: style.headerAlign === 'left' ? '30px 32px 16px 0' : '0 32px 16px' },
      )
    : ''
  if (style.headerAlign === 'left' && nav) return section(c, column(wordmark + tagline, '50%') + column(nav, '50%'), { padding: '0' })
  return section(c, column(wordmark + tagline + nav), { padding: '0' })
}

function footer(c: Ctx): string {
  const { brand } = c.t
  const host = new URL(brand.url).host
  const linkStyle = `color:${c.p.muted};text-decoration:underline;`
  return section(
    c,
    column(
      [
        `<mj-divider css-class="em-rule" border-color="${c.p.border}" border-width="1px" padding="8px 32px 20px" />`,
        text(c, `<strong>${esc(brand.name)}</strong> · ${esc(brand.address)}`, { role: 'muted', size: 13, align: 'center', padding: '0 32px 6px', lineHeight: 1.5 }),
        text(c, `You are receiving this email because you subscribed at ${esc(host)}.`, { role: 'muted', size: 13, align: 'center', padding: '0 32px 6px', lineHeight: 1.5 }),
        text(
          c,
          `<a class="em-muted-link" href="${esc(unsubscribeUrl(c.t))}" style="${linkStyle}">Unsubscribe</a>&nbsp;&nbsp;·&nbsp;&nbsp;<a class="em-muted-link" href="${esc(preferencesUrl(c.t))}" style="${linkStyle}">Email preferences</a>`,
          { role: 'muted', size: 13, align: 'center', padding: '0 32px 28px' },
        ),
      ].join(''),
    ),
  )
}

const unsubscribeUrl = (t: EmailTemplate) => `${t.brand.url.replace(/\/$/, '')}/unsubscribe`
const preferencesUrl = (t: EmailTemplate) => `${t.brand.url.replace(/\/$/, '')}/email-preferences`

/** The style sheet of the dark version and of small screens. */
function styles(t: EmailTemplate): string {
  const d = t.style.dark
  const colour: [string, string][] = [
    ['.em-text div, .em-text p, .em-text strong, .em-nav', `color:${d.text} !important;`],
    ['.em-muted div, .em-muted-inline, .em-muted-link', `color:${d.muted} !important;`],
    ['.em-accent div, .em-accent-inline, .em-link, .em-star, .em-code', `color:${d.accent} !important;`],
    ['.em-band-text div', `color:${d.bandText} !important;`],
    ['.em-btn a', `color:${d.buttonText} !important;`],
    ['.em-btn-inverse a', `color:${d.band} !important;`],
  ]
  const background: [string, string][] = [
    ['body, .em-page', `background-color:${d.page} !important;`],
    ['.em-surface, .em-surface > table, .em-coupon > table > tbody > tr > td', `background:${d.surface} !important; background-color:${d.surface} !important;`],
    ['.em-band, .em-band > table', `background:${d.band} !important; background-color:${d.band} !important;`],
    ['.em-btn td, .em-btn a', `background:${d.button} !important; background-color:${d.button} !important;`],
    ['.em-btn-inverse td, .em-btn-inverse a', `background:${d.bandText} !important; background-color:${d.bandText} !important;`],
    ['.em-badge', `background:${d.accent} !important; color:${d.surface} !important;`],
  ]
  const border: [string, string][] = [
    ['.em-rule p', `border-top-color:${d.border} !important;`],
    ['.em-coupon > table > tbody > tr > td', `border-color:${d.border} !important;`],
    ['.em-code', `border-color:${d.accent} !important;`],
  ]
  const rules = (prefix: string, list: [string, string][]) =>
    list.map(([selectors, body]) => `${selectors.split(', ').map((selector) => (prefix ? `${prefix} ${selector}` : selector)).join(', ')} { ${body} }`).join('\n')
  return [
    ':root { color-scheme: light dark; supported-color-schemes: light dark; }',
    '@media (prefers-color-scheme: dark) {',
    rules('', [...background, ...colour, ...border]),
    '}',
    rules('[data-ogsc]', [...colour, ...border]),
    rules('[data-ogsb]', background),
    '@media only screen and (max-width:480px) {',
    '.em-h1 div { font-size:28px !important; line-height:1.2 !important; }',
    '}',
  ].join('\n')
}

export function emailMjml(t: EmailTemplate): string {
  const c: Ctx = {
    t,
    p: t.style.light,
    heading: EMAIL_FONTS[t.style.headingFont],
    body: EMAIL_FONTS[t.style.bodyFont],
    radius: t.style.radius,
    card: t.style.frame === 'card',
  }
  const [first, ...rest] = t.blocks
  // An announcement strip sits above the header, the rest below it.
  const lead = first?.type === 'announcement' ? renderBlock(c, first) : ''
  const blocks = (first?.type === 'announcement' ? rest : t.blocks).map((block) => renderBlock(c, block)).join('')
  const signoff = t.signoff ? section(c, column(text(c, esc(t.signoff), { role: 'muted', size: 15, padding: '8px 32px 24px', align: t.style.headerAlign })), { padding: '0' }) : ''
  const content = header(c) + blocks + signoff + footer(c)
  const bodyContent = c.card
    ? `${lead ? `<mj-wrapper padding="0" css-class="em-page" background-color="${t.style.light.page}">${lead}</mj-wrapper>` : ''}<mj-wrapper css-class="em-surface" background-color="${t.style.light.surface}" border-radius="${t.style.radius}px" padding="0">${content}</mj-wrapper>`
    : lead + content
  return [
    '<mjml lang="en">',
    '<mj-head>',
    `<mj-title>${esc(t.subject)}</mj-title>`,
    `<mj-preview>${esc(t.preheader)}</mj-preview>`,
    '<mj-raw><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"></mj-raw>',
    `<mj-attributes><mj-all font-family="${esc(EMAIL_FONTS[t.style.bodyFont])}" /></mj-attributes>`,
    '<mj-breakpoint width="480px" />',
    `<mj-style>${styles(t)}</mj-style>`,
    '</mj-head>',
    `<mj-body width="600px" background-color="${t.style.light.page}" css-class="em-page">`,
    c.card ? `<mj-section padding="16px 0 0" css-class="em-page"><mj-column></mj-column></mj-section>` : '',
    bodyContent,
    c.card ? `<mj-section padding="0 0 16px" css-class="em-page"><mj-column></mj-column></mj-section>` : '',
    '</mj-body>',
    '</mjml>',
  ].join('\n')
}

/** Leading indentation and blank lines cost bytes and mean nothing in HTML outside `pre`. */
const compact = (html: string) =>
  html
    .split('\n')
    .map((row) => row.trim())
    .filter((row) => row.length > 0)
    .join('\n')

// ---------------------------------------------------------------- plain text

function wrap(paragraph: string, width = TEXT_WIDTH, indent = ''): string[] {
  const lines: string[] = []
  let current = indent
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (current.trim() && current.length + 1 + word.length > width) {
      lines.push(current)
      current = indent + word
    } else current = current.trim() ? `${current} ${word}` : indent + word
  }
  if (current.trim()) lines.push(current)
  return lines
}

const ctaText = (cta: EmailCta) => [...wrap(`${cta.text}:`), cta.url]
const priceText = (product: { price: string; oldPrice?: string | undefined }) => (product.oldPrice ? `${product.price} (was ${product.oldPrice})` : product.price)

function blockText(block: EmailBlock): string[][] {
  switch (block.type) {
    case 'announcement':
      return [wrap(block.text)]
    case 'hero':
      return [
        ...(block.kicker ? [wrap(block.kicker.toUpperCase())] : []),
        wrap(block.headline),
        ...(block.text ? [wrap(block.text)] : []),
        ...(block.cta ? [ctaText(block.cta)] : []),
      ]
    case 'text':
      return [...(block.heading ? [wrap(block.heading)] : []), ...block.paragraphs.map((paragraph) => wrap(paragraph))]
    case 'button':
      return [ctaText(block.cta)]
    case 'image':
      return block.url ? [[...wrap(`[${block.alt}]`), block.url]] : []
    case 'products':
      return [
        ...(block.heading ? [wrap(block.heading)] : []),
        block.items.flatMap((item) => [...wrap(`* ${item.name}, ${priceText(item)}`, TEXT_WIDTH), `  ${item.url}`]),
        ...(block.cta ? [ctaText(block.cta)] : []),
      ]
    case 'spotlight':
      return [...(block.kicker ? [wrap(block.kicker.toUpperCase())] : []), wrap(`${block.product.name}, ${priceText(block.product)}`), wrap(block.text), ctaText(block.cta)]
    case 'coupon':
      return [
        wrap(`${block.label}: ${block.value}`),
        [`Code: ${block.code}`],
        wrap(block.text),
        ...(block.expires ? [wrap(block.expires)] : []),
        ...(block.cta ? [ctaText(block.cta)] : []),
      ]
    case 'countdown':
      return [wrap(`${block.label}: ${block.units.map((unit) => `${unit.value} ${unit.label}`).join(', ')}`), wrap(block.note)]
    case 'articles':
      return [...(block.heading ? [wrap(block.heading)] : []), ...block.items.map((item) => [...wrap(item.title.toUpperCase()), ...wrap(item.text), ...ctaText(item.link)])]
    case 'steps':
      return [...(block.heading ? [wrap(block.heading)] : []), block.items.flatMap((step, index) => wrap(`${index + 1}. ${step.title}: ${step.text}`, TEXT_WIDTH))]
    case 'perks':
      return [block.items.flatMap((perk) => wrap(`* ${perk.title}: ${perk.text}`))]
    case 'quote':
      return [[...wrap(`“${block.text}”`), ...wrap(`- ${block.author}`)]]
    case 'rating':
      return [
        wrap(block.heading),
        ...(block.product ? [wrap(block.product.name)] : []),
        wrap(block.text),
        [...wrap('Rate it from 1 (poor) to 5 (excellent):'), ...[5, 4, 3, 2, 1].map((n) => `${n} ${n === 1 ? 'star ' : 'stars'}: ${block.url}?rating=${n}`)],
      ]
    case 'cart':
      return [
        ...(block.heading ? [wrap(block.heading)] : []),
        [...block.items.flatMap((item) => wrap(`* ${item.name} (${item.detail}) x ${item.quantity}: ${item.price}`)), `Total: ${block.total}`],
        ...(block.note ? [wrap(block.note)] : []),
        ctaText(block.cta),
      ]
  }
}

export function emailText(t: EmailTemplate): string {
  const title = wrap(t.subject)
  const paragraphs: string[][] = [[...title, '='.repeat(Math.min(TEXT_WIDTH, Math.max(...title.map((row) => row.length))))], wrap(t.preheader), [t.brand.name, t.brand.url]]
  for (const block of t.blocks) paragraphs.push(...blockText(block))
  if (t.signoff) paragraphs.push(wrap(t.signoff))
  paragraphs.push(['-'.repeat(20), ...wrap(`${t.brand.name}, ${t.brand.address}`), ...wrap(`You are receiving this email because you subscribed at ${new URL(t.brand.url).host}.`), `Unsubscribe: ${unsubscribeUrl(t)}`, `Email preferences: ${preferencesUrl(t)}`])
  return `${paragraphs.map((lines) => lines.join('\n')).join('\n\n')}\n`
}

/** The div MJML wraps the body's content in: it repeats the page colour inline for clients that drop `<body>`. */
const BODY_WRAPPER = /<div(?=\s[^>]*\brole="article")/g

/**
 * MJML 5 gives mj-body's css-class to `<body>` alone, which webmail clients drop; the wrapper div
 * keeps the light page colour inline. It carries the page class again, so that the dark page
 * colour of the style sheet reaches it, as it did with MJML 4.
 */
function pageClassOnWrapper(html: string): string {
  const wrappers = html.match(BODY_WRAPPER)?.length ?? 0
  if (wrappers !== 1) throw new Error(`expected one body wrapper in the MJML output, found ${wrappers}`)
  return html.replace(BODY_WRAPPER, '<div class="em-page"')
}

export async function renderEmail(template: EmailTemplate): Promise<{ html: string; text: string }> {
  const result = await mjml2html(emailMjml(template), { validationLevel: 'strict', keepComments: false })
  if (result.errors.length) throw new Error(`email ${template.id}: ${result.errors.map((error) => error.formattedMessage).join('; ')}`)
  return { html: compact(pageClassOnWrapper(result.html)), text: emailText(template) }
}
