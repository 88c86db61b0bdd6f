/**
 * data/generated/widget-groups.json and widget-templates.json: the widget gallery. The server parses
 * both with these schemas at start-up (server/gallery/widget-catalog.ts) and checks what a
 * schema cannot see alone: unique ids, groups and subs that exist, sub inside its group.
 */
import { z } from 'zod'
import { TEMPLATE_ID_SOURCE } from './paths.js'

/** A template id: eight lowercase letters or digits, with at least one digit so it never reads as a group slug. */
export const widgetIdSchema = z.string().regex(new RegExp(`^(?=[a-z0-9]*[0-9])${TEMPLATE_ID_SOURCE}$`), 'must be 8 lowercase letters or digits, one of them a digit')
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug').max(40)
const hex = z.string().regex(/^#[0-9a-f]{6}$/, 'must be a #rrggbb colour')
const line = (max: number) => z.string().trim().min(1).max(max)

export const WIDGET_FAMILIES = ['discount', 'feedback', 'subscribe', 'launcher', 'age', 'announce', 'sale', 'product', 'whatsapp', 'inspired'] as const
export const WIDGET_LAYOUTS = ['bar', 'fullscreen', 'inline', 'modal', 'sidebar', 'slide-in', 'panel'] as const
/** Listing types, in the order the gallery offers them. */
export const WIDGET_POSITIONS = ['slidein', 'bar', 'panel', 'modal', 'sidebar', 'fullscreen', 'inline', 'custom'] as const

export const widgetFamilySchema = z.enum(WIDGET_FAMILIES)
export const widgetLayoutSchema = z.enum(WIDGET_LAYOUTS)
export const widgetPositionSchema = z.enum(WIDGET_POSITIONS)

export const ART_MOTIFS = [
  'gift', 'percent', 'envelope', 'bell', 'stars', 'chat', 'pumpkin', 'ghost', 'bat', 'snowflake', 'tree', 'heart', 'egg', 'leaf',
  'globe', 'flower', 'bag', 'tag', 'truck', 'clock', 'bolt', 'cake', 'cup', 'shirt', 'shoe', 'bottle', 'idcard', 'sliders',
  'megaphone', 'sparkle', 'mountain', 'sun', 'wave', 'book', 'paw', 'plant', 'ticket', 'lock',
] as const

export const paletteSchema = z.object({
  /** The widget's surface. */
  bg: hex,
  /** Text on the surface. */
  fg: hex,
  /** Secondary text and borders. */
  muted: hex,
  /** Highlights: the art, the kicker, the rating stars. */
  accent: hex,
  /** A second highlight colour for the art. */
  accent2: hex,
  button: hex,
  buttonText: hex,
  /** Input backgrounds. */
  field: hex,
  /** What a visitor types into a field (and a select's choice), on the field's background. */
  fieldText: hex,
  /** Placeholder text, quieter than typed text but as readable. */
  placeholder: hex,
})

const fieldBase = { name: z.string().regex(/^[a-z][a-z0-9_]{0,30}$/), label: line(60), required: z.boolean() }

export const widgetFieldSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email'), ...fieldBase, placeholder: line(60) }),
  z.object({ type: z.literal('text'), ...fieldBase, placeholder: line(60), autocomplete: z.enum(['name', 'given-name', 'off']).default('off') }),
  z.object({ type: z.literal('tel'), ...fieldBase, placeholder: line(60) }),
  z.object({ type: z.literal('textarea'), ...fieldBase, placeholder: line(80), maxLength: z.number().int().min(20).max(1000) }),
  /** A date; with minAge it is a date of birth, refused when younger than that. */
  z.object({ type: z.literal('date'), ...fieldBase, minAge: z.number().int().min(13).max(25).optional() }),
  /** One to five stars. */
  z.object({ type: z.literal('rating'), ...fieldBase }),
  z.object({ type: z.literal('choice'), ...fieldBase, options: z.array(line(40)).min(2).max(6) }),
  z.object({ type: z.literal('select'), ...fieldBase, options: z.array(line(40)).min(2).max(8) }),
  z.object({ type: z.literal('checkbox'), ...fieldBase }),
])

export const widgetButtonSchema = z.object({
  text: line(40),
  /**
   * What the main button does: `submit` checks the fields and shows the success state,
   * `reveal` shows the success state (a code, a message) without fields, `close` dismisses.
   */
  action: z.enum(['submit', 'reveal', 'close']),
})

export const widgetStyleSchema = z.object({
  palette: paletteSchema,
  font: z.enum(['sans', 'serif', 'mono', 'rounded', 'condensed', 'slab']),
  /** Corner shape of the box. */
  shape: z.enum(['square', 'soft', 'round', 'pill', 'notched']),
  /** Box decoration. */
  frame: z.enum(['none', 'shadow', 'outline', 'offset', 'double', 'glow']),
  pattern: z.enum(['none', 'dots', 'stripes', 'grid', 'waves', 'diagonal', 'confetti', 'rays']),
  art: z.enum(ART_MOTIFS),
  artPlacement: z.enum(['left', 'right', 'top', 'background', 'badge', 'none']),
  align: z.enum(['left', 'center']),
  animation: z.enum(['fade', 'slide', 'zoom', 'bounce', 'flip', 'drop']),
  /** Side or corner for slide-ins, sidebars, bars and launchers. */
  placement: z.enum(['top', 'bottom', 'left', 'right', 'bottom-left', 'bottom-right', 'center']),
  /** Box width in CSS pixels (bars and fullscreen ignore it). */
  width: z.number().int().min(240).max(760),
  /** Headline case and weight. */
  headlineStyle: z.enum(['bold', 'light', 'caps', 'italic', 'huge']),
})

export const widgetTemplateSchema = z.object({
  id: widgetIdSchema,
  /** The stable key the id is derived from (family/slug); never shown. */
  key: z.string().regex(/^[a-z]+\/[a-z0-9-]+$/).max(80),
  name: line(80),
  family: widgetFamilySchema,
  layout: widgetLayoutSchema,
  position: widgetPositionSchema,
  group: slug,
  sub: slug.nullable(),
  tags: z.array(z.string().regex(/^[a-z0-9 '-]{2,30}$/)).max(12),
  copy: z.object({
    kicker: line(40).optional(),
    headline: line(90),
    text: line(240),
    note: line(120).optional(),
  }),
  fields: z.array(widgetFieldSchema).max(4),
  button: widgetButtonSchema,
  /** A second, quieter choice ("No thanks"); for age gates it is the refusal. */
  secondary: z.object({ text: line(40) }).optional(),
  success: z.object({ headline: line(80), text: line(200), code: z.string().regex(/^[A-Z0-9-]{3,16}$/).optional() }),
  /** Age gates: shown instead of the success state when the visitor says no. */
  refusal: z.object({ headline: line(80), text: line(200) }).optional(),
  /** Sales: a countdown of this many minutes from the moment the widget shows. */
  countdownMinutes: z.number().int().min(1).max(10_080).optional(),
  /** Launchers (and launcher-style templates): the small button that opens the widget. */
  launcher: z.object({ text: line(30), icon: z.enum(ART_MOTIFS) }).optional(),
  /** WhatsApp chats: who answers. */
  agent: z.object({ name: line(30), role: line(40), reply: line(60) }).optional(),
  style: widgetStyleSchema,
  /** A dark version of the palette: the template offers light and dark. */
  dark: paletteSchema.optional(),
})

export const extensionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('link'), data: z.object({ url: z.string().regex(/^\/[^/]/, 'must be a site path'), text: line(80) }) }),
  z.object({ type: z.literal('video'), data: z.object({ url: z.string().regex(/^\/[^/]/, 'must be a site path'), text: line(80) }) }),
])

export const widgetSubSchema = z.object({ value: slug, name: line(40), slug })

export const widgetGroupSchema = z.object({
  value: slug,
  name: line(40),
  slug,
  hidden: z.boolean(),
  subs: z.array(widgetSubSchema).max(12),
  /** Seasonal groups: an icon (SVG markup), where the row's slider starts, and extra links. */
  special: z
    .object({
      icon: z.string().startsWith('<svg').max(4000),
      start: z.number().int().min(0).max(500),
      disabled: z.boolean(),
      extensions: z.array(extensionSchema).max(6),
    })
    .optional(),
})

export const widgetGroupsFileSchema = z.object({
  /** Listing order: specials first, then the rest. */
  groups: z.array(widgetGroupSchema).min(1).max(40),
  positions: z.array(z.object({ value: widgetPositionSchema, name: line(20), slug })).length(WIDGET_POSITIONS.length),
})

export const widgetTemplatesFileSchema = z.array(widgetTemplateSchema).min(1).max(2000)

export type WidgetFamily = z.infer<typeof widgetFamilySchema>
export type WidgetLayout = z.infer<typeof widgetLayoutSchema>
export type WidgetPosition = z.infer<typeof widgetPositionSchema>
export type ArtMotif = (typeof ART_MOTIFS)[number]
export type Palette = z.infer<typeof paletteSchema>
export type WidgetField = z.infer<typeof widgetFieldSchema>
export type WidgetStyle = z.infer<typeof widgetStyleSchema>
export type WidgetTemplate = z.infer<typeof widgetTemplateSchema>
export type WidgetGroupDefinition = z.infer<typeof widgetGroupSchema>
export type WidgetGroupsFile = z.infer<typeof widgetGroupsFileSchema>
export type Extension = z.infer<typeof extensionSchema>

/** One template as the API lists it. */
export interface WidgetItem {
  wid: string
  id: string
  name: string
  /** Position slug. */
  type: WidgetPosition
  group: string
  sub: string | null
  img: string
  videoUrl: string | null
  isInline: boolean
  isCustom: boolean
  isInspiredCustom: boolean
  hiddenTheme: boolean
}
