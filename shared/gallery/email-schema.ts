/**
 * data/generated/email-groups.json and email-templates.json: the email gallery. Each template is
 * content (brand, palettes, blocks), rendered to HTML and plain text by
 * scripts/templates/email-mjml.ts and committed under data/generated/emails/. `checkEmailCatalog` checks what
 * a schema cannot see alone: unique ids and keys, groups that exist, a visible home group.
 */
import { z } from 'zod'
import { widgetIdSchema } from './widget-schema.js'

export const emailIdSchema = widgetIdSchema

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug').max(60)
const hex = z.string().regex(/^#[0-9a-f]{6}$/, 'must be a #rrggbb colour')
const line = (max: number) => z.string().trim().min(1).max(max)
/** A link target: an absolute https URL without a fragment. */
const url = z
  .string()
  .max(200)
  .regex(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}(?:\/[^\s#"<>]*)?$/, 'must be an absolute https URL without #')
/** An image of data/generated/emails/assets/, by file name. */
const asset = z.string().regex(/^[a-z0-9-]+\.(?:png|jpg)$/, 'must be a file name in data/generated/emails/assets/')
const price = z.string().regex(/^[$€£]\d{1,5}(?:\.\d\d)?$/, 'must be a price like $24 or €9.50')

export const EMAIL_GROUP_SLUGS = [
  'all-email-templates',
  'black-friday-email-templates',
  'welcome-email-templates',
  'products-email-templates',
  'coupons-email-templates',
  'news-email-templates',
  'review-requests-email-templates',
  'abandonment-email-templates',
] as const

export const emailGroupSchema = z.object({ name: line(40), slug, hidden: z.boolean() })

export const emailGroupsFileSchema = z.object({
  groups: z
    .array(emailGroupSchema)
    .length(EMAIL_GROUP_SLUGS.length)
    .refine((groups) => groups.every((group, index) => group.slug === EMAIL_GROUP_SLUGS[index]), `must list the groups in this order: ${EMAIL_GROUP_SLUGS.join(', ')}`),
})

/** Font stacks an email may use: system fonts every mail client has, no web fonts. */
export const EMAIL_FONTS = {
  helvetica: "'Helvetica Neue', Helvetica, Arial, sans-serif",
  arial: 'Arial, Helvetica, sans-serif',
  verdana: 'Verdana, Geneva, sans-serif',
  tahoma: 'Tahoma, Verdana, Segoe, sans-serif',
  trebuchet: "'Trebuchet MS', 'Lucida Grande', sans-serif",
  georgia: 'Georgia, Times, serif',
  palatino: "'Palatino Linotype', Palatino, 'Book Antiqua', Georgia, serif",
  times: "'Times New Roman', Times, serif",
  courier: "'Courier New', Courier, monospace",
} as const
export const emailFontSchema = z.enum(Object.keys(EMAIL_FONTS) as [keyof typeof EMAIL_FONTS, ...(keyof typeof EMAIL_FONTS)[]])

export const emailPaletteSchema = z.object({
  /** Behind the 600 px column. */
  page: hex,
  /** The column itself. */
  surface: hex,
  text: hex,
  /** Secondary text, the footer. */
  muted: hex,
  /** Kickers, prices, links, stars. */
  accent: hex,
  button: hex,
  buttonText: hex,
  /** Hairlines, card and coupon borders. */
  border: hex,
  /** A contrasting band: announcement strip, coupon, countdown, highlighted sections. */
  band: hex,
  bandText: hex,
})

export const emailStyleSchema = z.object({
  light: emailPaletteSchema,
  /** The authored dark version, applied by `prefers-color-scheme: dark`. */
  dark: emailPaletteSchema,
  headingFont: emailFontSchema,
  bodyFont: emailFontSchema,
  /** Corner radius of buttons, cards and images, in px. */
  radius: z.number().int().min(0).max(30),
  /** The column floats on the page colour (`card`) or fills the width (`full`). */
  frame: z.enum(['card', 'full']),
  /** Headline case. */
  headlineCase: z.enum(['normal', 'upper']),
  headerAlign: z.enum(['left', 'center']),
})

export const ctaSchema = z.object({ text: line(40), url })

export const emailProductSchema = z.object({
  name: line(50),
  price,
  /** The price before the discount. */
  oldPrice: price.optional(),
  image: asset,
  alt: line(120),
  url,
})

const heading = line(90)
const paragraph = line(600)

export const emailBlockSchema = z.discriminatedUnion('type', [
  /** A thin strip above the header: shipping note, sale reminder. */
  z.object({ type: z.literal('announcement'), text: line(90) }),
  z.object({
    type: z.literal('hero'),
    kicker: line(50).optional(),
    headline: heading,
    text: paragraph.optional(),
    image: asset.optional(),
    alt: line(120).optional(),
    /** Where the image sits: above the headline, or a full band on the `band` colour. */
    imagePlace: z.enum(['top', 'below']).default('top'),
    onBand: z.boolean().default(false),
    cta: ctaSchema.optional(),
  }),
  z.object({ type: z.literal('text'), heading: heading.optional(), paragraphs: z.array(paragraph).min(1).max(5), align: z.enum(['left', 'center']).default('left') }),
  z.object({ type: z.literal('button'), cta: ctaSchema }),
  z.object({ type: z.literal('image'), image: asset, alt: line(120), url: url.optional() }),
  z.object({ type: z.literal('products'), heading: heading.optional(), columns: z.union([z.literal(2), z.literal(3)]), items: z.array(emailProductSchema).min(2).max(6), cta: ctaSchema.optional() }),
  z.object({ type: z.literal('spotlight'), kicker: line(50).optional(), product: emailProductSchema, text: paragraph, cta: ctaSchema, side: z.enum(['left', 'right']).default('left') }),
  z.object({ type: z.literal('coupon'), label: line(60), value: line(30), code: z.string().regex(/^[A-Z0-9-]{3,20}$/), text: line(200), expires: line(80).optional(), cta: ctaSchema.optional() }),
  /** A deadline banner: the time left as it stands when the email goes out. */
  z.object({
    type: z.literal('countdown'),
    label: line(60),
    units: z.array(z.object({ value: z.string().regex(/^\d{1,3}$/), label: line(10) })).min(2).max(4),
    note: line(120),
  }),
  z.object({
    type: z.literal('articles'),
    heading: heading.optional(),
    items: z.array(z.object({ title: heading, text: paragraph, image: asset.optional(), alt: line(120).optional(), link: ctaSchema })).min(1).max(4),
  }),
  z.object({ type: z.literal('steps'), heading: heading.optional(), items: z.array(z.object({ title: line(60), text: line(240) })).min(2).max(4) }),
  /** Two or three short selling points side by side. */
  z.object({ type: z.literal('perks'), items: z.array(z.object({ title: line(40), text: line(120) })).min(2).max(3) }),
  z.object({ type: z.literal('quote'), text: line(300), author: line(80) }),
  /** One to five stars, each a link to `url?rating=n`. */
  z.object({ type: z.literal('rating'), heading, text: paragraph, product: emailProductSchema.optional(), url }),
  z.object({
    type: z.literal('cart'),
    heading: heading.optional(),
    items: z.array(z.object({ name: line(50), detail: line(60), quantity: z.number().int().min(1).max(9), price, image: asset, alt: line(120) })).min(1).max(4),
    total: price,
    note: line(160).optional(),
    cta: ctaSchema,
  }),
])

export const emailBrandSchema = z.object({
  name: line(40),
  /** Under the wordmark in the header. */
  tagline: line(60).optional(),
  industry: line(40),
  url,
  /** The postal address line of the footer. */
  address: line(120),
  /** Header links, left to right. */
  nav: z.array(z.object({ text: line(20), url })).max(4),
})

export const emailTemplateSchema = z.object({
  id: emailIdSchema,
  /** The stable key the id is derived from; never shown. */
  key: slug,
  name: line(60),
  /** Group slugs; the first is the template's home. */
  groups: z.array(slug).min(1).max(EMAIL_GROUP_SLUGS.length),
  subject: line(90),
  /** The preview line inbox lists show after the subject. */
  preheader: line(140),
  tags: z.array(z.string().regex(/^[a-z0-9 '-]{2,30}$/)).min(1).max(12),
  brand: emailBrandSchema,
  style: emailStyleSchema,
  blocks: z.array(emailBlockSchema).min(2).max(12),
  /** The last words before the footer. */
  signoff: line(120).optional(),
})

export const emailTemplatesFileSchema = z.object({ templates: z.array(emailTemplateSchema).min(1).max(500) })

export type EmailGroupsFile = z.infer<typeof emailGroupsFileSchema>
export type EmailGroupDefinition = z.infer<typeof emailGroupSchema>
export type EmailGroupSlug = (typeof EMAIL_GROUP_SLUGS)[number]
export type EmailFont = z.infer<typeof emailFontSchema>
export type EmailPalette = z.infer<typeof emailPaletteSchema>
export type EmailStyle = z.infer<typeof emailStyleSchema>
export type EmailCta = z.infer<typeof ctaSchema>
export type EmailProduct = z.infer<typeof emailProductSchema>
export type EmailBlock = z.infer<typeof emailBlockSchema>
export type EmailBrand = z.infer<typeof emailBrandSchema>
export type EmailTemplate = z.infer<typeof emailTemplateSchema>
export type EmailTemplatesFile = z.infer<typeof emailTemplatesFileSchema>

const BLACK_FRIDAY: EmailGroupSlug = 'black-friday-email-templates'

/** Throws an Error naming the template and the problem when the two files disagree. */
export function checkEmailCatalog(groups: readonly EmailGroupDefinition[], templates: readonly EmailTemplate[]): void {
  const bySlug = new Map(groups.map((group) => [group.slug, group]))
  if (bySlug.size !== groups.length) throw new Error('groups: a slug is listed twice')
  const ids = new Set<string>()
  const keys = new Set<string>()
  const names = new Set<string>()
  for (const template of templates) {
    const where = `template ${template.id} (${template.name})`
    if (ids.has(template.id)) throw new Error(`${where}: duplicate id ${template.id}`)
    if (keys.has(template.key)) throw new Error(`${where}: duplicate key ${template.key}`)
    if (names.has(template.name.toLowerCase())) throw new Error(`${where}: duplicate name`)
    if (bySlug.has(template.id)) throw new Error(`${where}: id equals a group slug`)
    ids.add(template.id)
    keys.add(template.key)
    names.add(template.name.toLowerCase())
    if (new Set(template.groups).size !== template.groups.length) throw new Error(`${where}: a group is listed twice`)
    for (const slugName of template.groups) {
      if (!bySlug.has(slugName)) throw new Error(`${where}: unknown group ${slugName}`)
    }
    const home = bySlug.get(template.groups[0]!)!
    const onlyBlackFriday = template.groups.length === 1 && home.slug === BLACK_FRIDAY
    if (home.hidden && !onlyBlackFriday) throw new Error(`${where}: its first group ${home.slug} is hidden; list a visible group first`)
  }
}
