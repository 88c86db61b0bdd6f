/**
 * Writes data/generated/email-groups.json and email-templates.json from the copy in
 * scripts/templates/email-template-copy.ts and the shops in scripts/templates/email-template-shops.ts:
 * `npx tsx scripts/templates/generate-email-templates.ts` (`--out <folder>` writes them there
 * instead), then `npm run emails` to render them.
 *
 * Deterministic. A template's id is derived from its key, so ids stay put when templates are
 * added, reordered or restyled. Looks are spread on purpose: each template's hue is its shop's,
 * turned by its place among the shop's templates, and palette variant, frame, radius, headline
 * case and header alignment cycle on their own periods; the script stops if two templates would
 * share a palette or a subject, or if a text colour would not read on its background.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  checkEmailCatalog,
  emailGroupsFileSchema,
  emailTemplatesFileSchema,
  type EmailBlock,
  type EmailGroupSlug,
  type EmailGroupsFile,
  type EmailPalette,
  type EmailProduct,
  type EmailTemplate,
} from '../../shared/gallery/email-schema.js'
import { assetAlt } from './email-assets.js'
import { TEMPLATES, type Builder } from './email-template-copy.js'
import { SHOPS, type Shop } from './email-template-shops.js'
import { contrast, hslToHex as hsl, luminance } from '../lib/colour.js'
import { outputFolder } from './output.js'


const GROUPS: EmailGroupsFile['groups'] = [
  { name: 'All', slug: 'all-email-templates', hidden: false },
  { name: 'Black Friday', slug: 'black-friday-email-templates', hidden: true },
  { name: 'Welcome', slug: 'welcome-email-templates', hidden: false },
  { name: 'Products', slug: 'products-email-templates', hidden: false },
  { name: 'Coupons', slug: 'coupons-email-templates', hidden: false },
  { name: 'News', slug: 'news-email-templates', hidden: false },
  { name: 'Review requests', slug: 'review-requests-email-templates', hidden: false },
  { name: 'Abandonment', slug: 'abandonment-email-templates', hidden: false },
]

const GROUP_LETTERS: Record<string, EmailGroupSlug> = {
  W: 'welcome-email-templates',
  P: 'products-email-templates',
  C: 'coupons-email-templates',
  N: 'news-email-templates',
  R: 'review-requests-email-templates',
  A: 'abandonment-email-templates',
  B: 'black-friday-email-templates',
}

// ---------------------------------------------------------------- colours

/** Moves a colour's lightness away from `against` until it reads at `ratio`. */
function readable(h: number, s: number, l: number, against: string, ratio: number): string {
  const darker = luminance(against) > 0.3
  for (let light = l; light >= 0 && light <= 100; light += darker ? -2 : 2) {
    const colour = hsl(h, s, light)
    if (contrast(colour, against) >= ratio) return colour
  }
  return darker ? '#000000' : '#ffffff'
}

const onColour = (bg: string) => (contrast('#14161a', bg) >= contrast('#ffffff', bg) ? '#14161a' : '#ffffff')

type Variant = 'clean' | 'bold' | 'warm' | 'ink' | 'tint'
const VARIANTS: Variant[] = ['clean', 'bold', 'warm', 'ink', 'tint']

function lightPalette(h: number, variant: Variant): EmailPalette {
  const surface = variant === 'warm' ? hsl(h + 20, 45, 97) : variant === 'tint' ? hsl(h, 40, 97) : '#ffffff'
  const page = variant === 'warm' ? hsl(h + 20, 30, 90) : variant === 'ink' ? hsl(h, 12, 93) : hsl(h, 25, 95)
  const band = { clean: hsl(h, 55, 93), bold: readable(h, 70, 42, '#ffffff', 5.5), warm: hsl(h + 20, 50, 86), ink: hsl(h, 30, 14), tint: hsl(h + 180, 45, 90) }[variant]
  const text = readable(h, 25, 16, surface, 12)
  const accent = readable(h, 75, 42, surface, 4.8)
  const button = variant === 'ink' ? hsl(h, 30, 14) : readable(h, 72, 44, '#ffffff', 4.6)
  return {
    page,
    surface,
    text,
    muted: readable(h, 10, 42, surface, 5.5),
    accent,
    button,
    buttonText: onColour(button),
    border: hsl(h, 18, 86),
    band,
    bandText: luminance(band) > 0.3 ? readable(h, 45, 20, band, 8) : readable(h, 30, 94, band, 8),
  }
}

function darkPalette(h: number, variant: Variant): EmailPalette {
  const surface = hsl(h, 16, 12)
  const band = { clean: hsl(h, 30, 20), bold: hsl(h, 55, 30), warm: hsl(h + 20, 25, 19), ink: hsl(h, 20, 6), tint: hsl(h + 180, 25, 19) }[variant]
  const button = readable(h, 70, 62, '#14161a', 6)
  return {
    page: hsl(h, 18, 7),
    surface,
    text: readable(h, 15, 92, surface, 12),
    muted: readable(h, 10, 70, surface, 5.5),
    accent: readable(h, 75, 68, surface, 5),
    button,
    buttonText: onColour(button),
    border: hsl(h, 12, 26),
    band,
    bandText: readable(h, 30, 92, band, 8),
  }
}

function checkPalette(where: string, palette: EmailPalette) {
  const pairs: [string, string, string, number][] = [
    ['text', palette.text, palette.surface, 7],
    ['muted', palette.muted, palette.surface, 4.5],
    ['accent', palette.accent, palette.surface, 4.5],
    ['button text', palette.buttonText, palette.button, 4.5],
    ['band text', palette.bandText, palette.band, 4.5],
  ]
  for (const [name, fg, bg, ratio] of pairs) {
    if (contrast(fg, bg) < ratio) throw new Error(`${where}: ${name} ${fg} on ${bg} reads at ${contrast(fg, bg).toFixed(2)}:1, below ${ratio}:1`)
  }
}

// ---------------------------------------------------------------- ids

const taken = new Set<string>()
function idFor(key: string): string {
  for (let salt = 0; ; salt++) {
    const digest = createHash('sha256').update(salt ? `email/${key}#${salt}` : `email/${key}`).digest()
    let id = ''
    for (let index = 0; id.length < 8; index++) id += (digest[index]! % 36).toString(36)
    if (!/[0-9]/.test(id)) id = id.slice(0, 7) + String(digest[20]! % 10)
    if (!taken.has(id)) {
      taken.add(id)
      return id
    }
  }
}

// ---------------------------------------------------------------- blocks

function builder(shop: Shop): Builder {
  const base = `https://${shop.domain}.example.com`
  const url = (where: string) => `${base}/${where}`
  const cta = ([text, where]: [string, string]) => ({ text, url: url(where) })
  const product = (ref: string | [string, string]): EmailProduct => {
    const [id, sale] = typeof ref === 'string' ? [ref, undefined] : ref
    const item = shop.products[id]
    if (!item) throw new Error(`${shop.name}: no product ${id}`)
    const slug = item.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
    return { name: item.name, price: sale ?? item.price, ...(sale ? { oldPrice: item.price } : {}), image: item.image, alt: assetAlt(item.image), url: url(`products/${slug}`) }
  }
  const amount = (price: string) => Number(price.slice(1))
  return {
    bar: (text) => ({ type: 'announcement', text }),
    hero: (headline, text, o = {}) => ({
      type: 'hero',
      headline,
      ...(o.kicker ? { kicker: o.kicker } : {}),
      ...(text ? { text } : {}),
      ...(o.image ? { image: o.image, alt: assetAlt(o.image) } : {}),
      imagePlace: o.below ? 'below' : 'top',
      onBand: o.band ?? false,
      ...(o.cta ? { cta: cta(o.cta) } : {}),
    }),
    text: (paragraphs, heading, align = 'left') => ({ type: 'text', ...(heading ? { heading } : {}), paragraphs, align }),
    button: (text, where) => ({ type: 'button', cta: cta([text, where]) }),
    image: (file, where) => ({ type: 'image', image: file, alt: assetAlt(file), ...(where ? { url: url(where) } : {}) }),
    grid: (refs, columns, heading, more) => ({ type: 'products', ...(heading ? { heading } : {}), columns, items: refs.map(product), ...(more ? { cta: cta(more) } : {}) }),
    spot: (ref, text, more, kicker, side = 'left') => ({ type: 'spotlight', ...(kicker ? { kicker } : {}), product: product(ref), text, cta: cta(more), side }),
    coupon: (label, value, code, text, expires, more) => ({ type: 'coupon', label, value, code, text, ...(expires ? { expires } : {}), ...(more ? { cta: cta(more) } : {}) }),
    countdown: (label, units, note) => ({ type: 'countdown', label, units: units.map(([value, unit]) => ({ value, label: unit })), note }),
    articles: (items, heading) => ({
      type: 'articles',
      ...(heading ? { heading } : {}),
      items: items.map(([title, text, linkText, where, image]) => ({ title, text, ...(image ? { image, alt: assetAlt(image) } : {}), link: cta([linkText, where]) })),
    }),
    steps: (items, heading) => ({ type: 'steps', ...(heading ? { heading } : {}), items: items.map(([title, text]) => ({ title, text })) }),
    perks: (items) => ({ type: 'perks', items: items.map(([title, text]) => ({ title, text })) }),
    quote: (text, author) => ({ type: 'quote', text, author }),
    rating: (heading, text, where, ref) => ({ type: 'rating', heading, text, url: url(where), ...(ref ? { product: product(ref) } : {}) }),
    cart: (items, more, note, heading) => {
      const lines = items.map(([ref, detail, quantity]) => {
        const item = product(ref)
        return { name: item.name, detail, quantity, price: item.price, image: item.image, alt: item.alt }
      })
      const symbol = lines[0]!.price[0]!
      const total = lines.reduce((sum, line) => sum + amount(line.price) * line.quantity, 0)
      return { type: 'cart', ...(heading ? { heading } : {}), items: lines.map((line) => ({ ...line, price: `${symbol}${amount(line.price) * line.quantity}` })), total: `${symbol}${total}`, ...(note ? { note } : {}), cta: cta(more) }
    },
  } satisfies Builder
}

// ---------------------------------------------------------------- templates

function groupsOf(letters: string, bfOnly: boolean, key: string): EmailGroupSlug[] {
  const slugs = letters.split(/\s+/).filter(Boolean).map((letter) => {
    const slug = GROUP_LETTERS[letter]
    if (!slug) throw new Error(`${key}: unknown group letter ${letter}`)
    return slug
  })
  if (bfOnly) return slugs
  const visible = slugs.filter((slug) => slug !== 'black-friday-email-templates')
  return [...visible, 'all-email-templates', ...slugs.filter((slug) => slug === 'black-friday-email-templates')]
}

function buildTemplates(): EmailTemplate[] {
  const perShop = new Map<string, number>()
  return TEMPLATES.map((copy, index) => {
    const shop: Shop = SHOPS[copy.shop]
    const nth = perShop.get(copy.shop) ?? 0
    perShop.set(copy.shop, nth + 1)
    const hue = shop.hue + nth * 29
    const variant = VARIANTS[(index + nth) % VARIANTS.length]!
    const light = lightPalette(hue, variant)
    const dark = darkPalette(hue, variant)
    checkPalette(`${copy.key} light`, light)
    checkPalette(`${copy.key} dark`, dark)
    const b = builder(shop)
    const blocks: EmailBlock[] = copy.blocks(b)
    return {
      id: idFor(copy.key),
      key: copy.key,
      name: copy.name,
      groups: groupsOf(copy.groups, copy.bfOnly ?? false, copy.key),
      subject: copy.subject,
      preheader: copy.preheader,
      tags: copy.tags,
      brand: {
        name: shop.name,
        ...(shop.tagline ? { tagline: shop.tagline } : {}),
        industry: shop.industry,
        url: `https://${shop.domain}.example.com`,
        address: shop.address,
        nav: shop.nav.slice(0, (index % 3) + 1 === 1 ? 0 : shop.nav.length).map(([text, where]) => ({ text, url: `https://${shop.domain}.example.com/${where}` })),
      },
      style: {
        light,
        dark,
        headingFont: shop.headingFont,
        bodyFont: shop.bodyFont,
        radius: [0, 6, 12, 24, 4, 16][index % 6]!,
        frame: index % 3 === 2 ? 'full' : 'card',
        headlineCase: index % 5 === 3 ? 'upper' : 'normal',
        headerAlign: index % 4 === 1 ? 'left' : 'center',
      },
      blocks,
      ...(copy.signoff ? { signoff: copy.signoff } : {}),
    }
  })
}

/** What the eye sees of a template's arrangement: frame, header, corners and the blocks in order. */
export function layoutOf(template: EmailTemplate): string {
  const { style } = template
  const blocks = template.blocks.map((block) => {
    if (block.type === 'hero') return `hero${block.image ? `+${block.imagePlace}` : ''}${block.onBand ? '+band' : ''}`
    if (block.type === 'products') return `products${block.columns}`
    return block.type
  })
  return [style.frame, style.headerAlign, style.headlineCase, style.radius, ...blocks].join(',')
}

function main() {
  const templates = buildTemplates()
  const palettes = new Set<string>()
  const layouts = new Set<string>()
  const subjects = new Set<string>()
  for (const template of templates) {
    const colours = `${template.style.light.accent}|${template.style.light.band}`
    if (palettes.has(colours)) throw new Error(`${template.key}: another template has the same palette`)
    if (layouts.has(layoutOf(template))) throw new Error(`${template.key}: another template has the same layout`)
    if (subjects.has(template.subject)) throw new Error(`${template.key}: another template has the same subject`)
    palettes.add(colours)
    layouts.add(layoutOf(template))
    subjects.add(template.subject)
  }
  const groupsFile = emailGroupsFileSchema.parse({ groups: GROUPS })
  const templatesFile = emailTemplatesFileSchema.parse({ templates })
  checkEmailCatalog(groupsFile.groups, templatesFile.templates)
  const out = outputFolder()
  fs.mkdirSync(out, { recursive: true })
  fs.writeFileSync(path.join(out, 'email-groups.json'), `${JSON.stringify(groupsFile, null, 2)}\n`)
  fs.writeFileSync(path.join(out, 'email-templates.json'), `${JSON.stringify(templatesFile, null, 2)}\n`)
  const counts = GROUPS.map((group) => `${group.name} ${templates.filter((template) => template.groups.includes(group.slug)).length}`)
  console.log(`${templates.length} templates: ${counts.join(', ')}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main()
