/**
 * Writes data/generated/widget-groups.json and widget-templates.json from the copy in
 * scripts/templates/widget-template-copy.ts: `npx tsx scripts/templates/generate-widget-templates.ts`
 * (`-- --out <folder>` writes them there instead).
 *
 * Deterministic: the same input gives the same files, byte for byte. A template's id is derived
 * from its key (family/slug), so ids stay put when templates are added, reordered or restyled.
 * Looks are spread on purpose: palettes walk the colour wheel by the golden angle, and every
 * other trait (font, shape, frame, pattern, art placement, animation) cycles on its own period,
 * so no two cards share a look; the script stops if two would. Palettes are built to meet WCAG
 * 2.1 AA wherever the widget draws text (scripts/templates/widget-contrast.ts), and the script stops
 * if one does not.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  widgetGroupsFileSchema,
  widgetTemplatesFileSchema,
  type ArtMotif,
  type Palette,
  type WidgetFamily,
  type WidgetField,
  type WidgetGroupsFile,
  type WidgetLayout,
  type WidgetPosition,
  type WidgetStyle,
  type WidgetTemplate,
} from '../../shared/gallery/widget-schema.js'
import {
  AGE,
  ANNOUNCE,
  DISCOUNT,
  FEEDBACK,
  INSPIRED,
  LAUNCHER,
  PRODUCT,
  SALE,
  SEASONS,
  SUBSCRIBE,
  USE_CASES,
  WHATSAPP,
  type CopyExtra,
  type CopyLine,
} from './widget-template-copy.js'
import { COUNTDOWN_TINT } from '../../server/gallery/widget-render.js'
import { contrast, hslToHex, luminance, mix } from '../lib/colour.js'
import { contrastProblems, NON_TEXT, TEXT, textSurfaces } from './widget-contrast.js'
import { outputFolder } from './output.js'


// ---------------------------------------------------------------- colours

/**
 * House margins above WCAG AA (scripts/templates/widget-contrast.ts): text at least 7:1 on the plain
 * surface, secondary text and placeholders 4.6:1; on a surface the pattern or art shows through,
 * and everywhere else, the AA minimums.
 */
const TEXT_ON_SURFACE = 7
const SECONDARY_ON_SURFACE = 4.6

type Hsl = [h: number, s: number, l: number]
const hex = ([h, s, l]: Hsl) => hslToHex(h, s, l)

/**
 * The colour of hue `h` and saturation `s` nearest to lightness `l` (in steps of 2, darker or
 * lighter) for which `reads` holds; undefined when none does.
 */
function nearestInk([h, s, l]: Hsl, reads: (colour: string) => boolean): Hsl | undefined {
  for (let step = 0; step <= 100; step += 2) {
    for (const light of step ? [l - step, l + step] : [l]) {
      if (light < 0 || light > 100) continue
      if (reads(hslToHex(h, s, light))) return [h, s, light]
    }
  }
  return undefined
}

const INK = '#111318'
const PAPER = '#ffffff'
const onColour = (bg: string) => (contrast(INK, bg) >= contrast(PAPER, bg) ? INK : PAPER)

type Variant = 'light' | 'dark' | 'vivid' | 'pastel' | 'mono' | 'duotone' | 'cream' | 'neon'
const VARIANTS: Variant[] = ['light', 'vivid', 'dark', 'pastel', 'duotone', 'mono', 'cream', 'neon']

/** A variant's surface, accents and field background for hue `h`, before they are checked. */
function variantColours(h: number, variant: Variant): { bg: Hsl; accent: Hsl; accent2: Hsl; field: Hsl } {
  switch (variant) {
    case 'light':
      return { bg: [h, 35, 97], accent: [h, 78, 46], accent2: [h + 40, 85, 62], field: [h, 30, 92] }
    case 'dark':
      return { bg: [h, 38, 11], accent: [h, 85, 62], accent2: [h + 50, 80, 70], field: [h, 30, 19] }
    case 'vivid':
      return { bg: [h, 82, 50], accent: [h + 175, 90, 62], accent2: [h + 30, 95, 78], field: [h, 60, 96] }
    case 'pastel':
      return { bg: [h, 72, 89], accent: [h + 15, 68, 44], accent2: [h - 35, 75, 68], field: [h, 60, 97] }
    case 'mono':
      return { bg: [h, 6, 99], accent: [h, 90, 45], accent2: [h, 12, 80], field: [h, 8, 94] }
    case 'duotone':
      return { bg: [h, 58, 28], accent: [h + 150, 85, 66], accent2: [h + 120, 70, 80], field: [h, 40, 96] }
    case 'cream':
      return { bg: [40 + (h % 12), 55, 93], accent: [h, 62, 38], accent2: [h + 60, 55, 62], field: [40, 40, 98] }
    case 'neon':
      return { bg: [h, 28, 7], accent: [h, 100, 60], accent2: [h + 120, 100, 62], field: [h, 25, 15] }
  }
}

/** What a palette must serve besides text and buttons: the decorations and the parts some templates have. */
interface PaletteNeeds extends Pick<WidgetStyle, 'pattern' | 'artPlacement'> {
  /** A kicker line is drawn in the accent: it must read as text. */
  kicker: boolean
  /** Chosen rating stars are drawn in the accent: they must stand out from the surface. */
  rating: boolean
  /** Countdown digits sit on cells tinted with the text colour. */
  countdown: boolean
}

/**
 * A palette of the variant for hue `h` that reads everywhere the widget draws text. Text and
 * secondary text move in lightness until they read on the surface and wherever the pattern or
 * art shows through; a surface on which no text colour of the hue can reach 7:1 (a mid-tone
 * vivid) is darkened or lightened until one does. The accent moves only where it carries text
 * or a state; a button's colour moves until black or white reads on it at 4.5:1; typed text and
 * placeholders get their own colours measured on the field, which may differ from the surface.
 */
function palette(h: number, variant: Variant, needs: PaletteNeeds): Palette {
  const base = variantColours(h, variant)
  for (let shift = 0; shift <= 60; shift += 2) {
    const [bh, bs, bl] = base.bg
    const bgHsl: Hsl = [bh, bs, bl + (luminance(hex(base.bg)) < 0.3 ? -shift : shift)]
    const candidate = paletteOn(h, variant, bgHsl, base, needs)
    if (candidate) return candidate
  }
  throw new Error(`no readable ${variant} palette for hue ${h}`)
}

function paletteOn(h: number, variant: Variant, bgHsl: Hsl, base: ReturnType<typeof variantColours>, needs: PaletteNeeds): Palette | undefined {
  const bg = hex(bgHsl)
  const dark = luminance(bg) < 0.2
  const accent2 = hex(base.accent2)
  const surfacesWith = (fg: string, accent: string) => textSurfaces({ bg, fg, accent, accent2 }, needs)
  const readsOn = (colour: string, surfaces: string[], ratio: number) => surfaces.every((surface) => contrast(colour, surface) >= ratio)
  const textReads = (fg: string, accent: string) => {
    const surfaces = surfacesWith(fg, accent)
    if (contrast(fg, bg) < TEXT_ON_SURFACE || !readsOn(fg, surfaces, TEXT)) return false
    return !needs.countdown || surfaces.every((surface) => contrast(fg, mix(surface, fg, COUNTDOWN_TINT)) >= TEXT)
  }

  // Text first, on the accent as drawn; when the accent has to move, text is checked again.
  let accentHsl = base.accent
  const fgHsl = nearestInk([h, dark ? 15 : 35, dark ? 96 : 12], (colour) => textReads(colour, hex(accentHsl)))
  if (!fgHsl) return undefined
  const fg = hex(fgHsl)
  const accentNeed = needs.kicker ? TEXT : needs.rating ? NON_TEXT : 0
  if (accentNeed) {
    const moved = nearestInk(base.accent, (colour) => readsOn(colour, surfacesWith(fg, colour), accentNeed))
    if (!moved || !textReads(fg, hex(moved))) return undefined
    accentHsl = moved
  }
  const accent = hex(accentHsl)
  const surfaces = surfacesWith(fg, accent)
  const mutedHsl = nearestInk([h, 14, dark ? 72 : 38], (colour) => contrast(colour, bg) >= SECONDARY_ON_SURFACE && readsOn(colour, surfaces, TEXT))
  if (!mutedHsl) return undefined

  // The button: the accent, or on vivid and duotone surfaces a colour of its own; the text colour
  // when it would melt into the surface. Its lightness moves until black or white reads on it.
  const buttonReads = (colour: string) => contrast(onColour(colour), colour) >= TEXT && contrast(colour, bg) >= 1.6
  const ownButton = variant === 'vivid' || variant === 'duotone'
  const buttonBase: Hsl | undefined = ownButton ? (dark || luminance(bg) < 0.3 ? [h + 175, 90, 70] : undefined) : accentHsl
  let button = buttonBase ? hex(buttonBase) : INK
  if (contrast(button, bg) < 1.6) button = fg
  else if (buttonBase && !buttonReads(button)) {
    const moved = nearestInk(buttonBase, buttonReads)
    if (!moved) return undefined
    button = hex(moved)
  }

  // Fields may be lighter or darker than the surface: what is typed in them is measured on them.
  const field = hex(base.field)
  const darkField = luminance(field) < 0.2
  const fieldTextHsl = contrast(fg, field) >= TEXT_ON_SURFACE ? fgHsl : nearestInk([h, darkField ? 15 : 35, darkField ? 96 : 12], (colour) => contrast(colour, field) >= TEXT_ON_SURFACE)
  const placeholderHsl = nearestInk([h, 14, darkField ? 72 : 40], (colour) => contrast(colour, field) >= SECONDARY_ON_SURFACE)
  if (!fieldTextHsl || !placeholderHsl) return undefined
  return { bg, fg, muted: hex(mutedHsl), accent, accent2, button, buttonText: onColour(button), field, fieldText: hex(fieldTextHsl), placeholder: hex(placeholderHsl) }
}

// ---------------------------------------------------------------- fields

const email = (required = true): WidgetField => ({ type: 'email', name: 'email', label: 'Email', placeholder: 'you@example.com', required })
const name = (required = true): WidgetField => ({ type: 'text', name: 'name', label: 'First name', placeholder: 'Alex', required, autocomplete: 'given-name' })
const phone = (required = true): WidgetField => ({ type: 'tel', name: 'phone', label: 'Phone', placeholder: '+1 555 010 0199', required })
const choice = (fieldName: string, label: string, options: string[]): WidgetField => ({ type: 'choice', name: fieldName, label, options, required: true })
const select = (fieldName: string, label: string, options: string[]): WidgetField => ({ type: 'select', name: fieldName, label, options, required: true })
const textarea = (fieldName: string, label: string, placeholder: string, required = true): WidgetField => ({ type: 'textarea', name: fieldName, label, placeholder, required, maxLength: 500 })
const rating = (label = 'Your rating'): WidgetField => ({ type: 'rating', name: 'rating', label, required: true })

const FIELD_PRESETS: Record<string, WidgetField[]> = {
  none: [],
  email: [email()],
  'email-birthday': [email(), { type: 'date', name: 'birthday', label: 'Birthday', required: true, minAge: 13 }],
  'email-phone': [email(), phone()],
  'email-company': [email(), { type: 'text', name: 'company', label: 'Company', placeholder: 'Studio Nine', required: true, autocomplete: 'off' }],
  'email-friend': [email(), { type: 'email', name: 'friend', label: 'Friend’s email', placeholder: 'friend@example.com', required: false }],
  'email-city': [email(), { type: 'text', name: 'city', label: 'City', placeholder: 'Lisbon', required: true, autocomplete: 'off' }],
  'name-email': [name(), email()],
  'email-consent': [email(), { type: 'checkbox', name: 'consent', label: 'I agree to receive emails and accept the privacy policy', required: true }],
  quiz: [choice('style', 'Your style', ['Classic', 'Relaxed', 'Bold']), email()],
  rating: [rating()],
  recommend: [choice('recommend', 'Your answer', ['Definitely', 'Probably', 'Not sure', 'No'])],
  found: [choice('found', 'Your answer', ['Yes', 'Partly', 'No'])],
  blocker: [choice('blocker', 'What is stopping you?', ['Price', 'Shipping cost', 'Just browsing', 'Something else'])],
  source: [choice('source', 'Where did you hear about us?', ['Search', 'Social media', 'A friend', 'Podcast', 'Other'])],
  'rating-comment': [rating(), textarea('comment', 'Comment', 'What did you like?', false)],
  idea: [textarea('idea', 'Your idea', 'I wish I could…'), email(false)],
  contact: [name(), email(), textarea('message', 'Message', 'How can we help?')],
  problem: [select('area', 'Where?', ['Checkout', 'Product page', 'My account', 'Search']), textarea('details', 'What happened?', 'Steps, error messages…')],
  helpful: [choice('helpful', 'Your vote', ['Yes', 'No'])],
  fit: [choice('fit', 'The fit was', ['Too small', 'Just right', 'Too big'])],
  callback: [name(), phone()],
  quote: [name(), email(), textarea('project', 'Project', 'Tell us what you need')],
  leaving: [choice('reason', 'Main reason', ['Too expensive', 'Missing a feature', 'Switching provider', 'Other'])],
  booking: [name(), email(), { type: 'date', name: 'day', label: 'Preferred day', required: true }],
  mood: [choice('mood', 'Your reaction', ['Love it', 'It is fine', 'Miss the old one'])],
  birthdate: [{ type: 'date', name: 'birthdate', label: 'Date of birth', required: true, minAge: 18 }],
  birthdate21: [{ type: 'date', name: 'birthdate', label: 'Date of birth', required: true, minAge: 21 }],
  'gift-finder': [select('for', 'Who is it for?', ['Partner', 'Parent', 'Friend', 'Child', 'Colleague']), select('budget', 'Budget', ['Under $25', '$25–50', '$50–100', 'Over $100'])],
  'size-finder': [select('height', 'Height', ['Under 160 cm', '160–170 cm', '170–180 cm', 'Over 180 cm']), choice('fit', 'Preferred fit', ['Slim', 'Regular', 'Loose'])],
  skin: [choice('skin', 'Skin type', ['Dry', 'Oily', 'Combination', 'Sensitive']), select('concern', 'Main concern', ['Hydration', 'Spots', 'Fine lines', 'Redness'])],
  coffee: [select('brew', 'How do you brew?', ['Espresso', 'Filter', 'French press', 'Moka pot']), choice('taste', 'You like it', ['Fruity', 'Chocolatey', 'Nutty'])],
  running: [choice('surface', 'Surface', ['Road', 'Trail', 'Track']), select('distance', 'Weekly distance', ['Under 10 km', '10–30 km', 'Over 30 km'])],
  plant: [choice('light', 'Light', ['Bright', 'Medium', 'Low']), choice('water', 'You water', ['Often', 'Sometimes', 'Rarely'])],
  book: [select('mood', 'Mood', ['Uplifting', 'Thrilling', 'Thoughtful', 'Funny']), choice('length', 'Length', ['Short', 'Medium', 'Epic'])],
  interior: [select('room', 'Room', ['Living room', 'Bedroom', 'Kitchen', 'Office']), choice('look', 'Look', ['Minimal', 'Warm', 'Eclectic'])],
  'pet-food': [choice('pet', 'Your pet', ['Dog', 'Cat', 'Rabbit']), select('age', 'Age', ['Young', 'Adult', 'Senior'])],
  budget: [select('category', 'Category', ['Women', 'Men', 'Home', 'Beauty']), select('price', 'Price', ['Under $30', '$30–80', '$80–150', 'Over $150'])],
  rsvp: [name(), email()],
  'wa-message': [name(), textarea('message', 'Message', 'Hi! I have a question about…')],
  'wa-order': [{ type: 'text', name: 'order', label: 'Order number', placeholder: '#10293', required: true, autocomplete: 'off' }, textarea('message', 'Message', 'What went wrong?')],
  'wa-booking': [select('party', 'Party size', ['2', '3–4', '5–6', '7+']), { type: 'date', name: 'day', label: 'Day', required: true }],
  costume: [select('who', 'Dressing up as', ['Something scary', 'Something funny', 'A classic', 'A group costume']), select('for', 'For', ['Adult', 'Kid', 'Pet'])],
  story: [name(), textarea('story', 'Your story', 'It was a dark and stormy night…')],
  eco: [choice('habit', 'Favourite habit', ['Refill bottles', 'Cycling', 'Second-hand', 'Composting'])],
}

// ---------------------------------------------------------------- families

interface FamilyRules {
  group: string
  sub: string | null
  fields: string
  layouts: WidgetLayout[]
  arts: ArtMotif[]
  success: [string, string][]
}

const FAMILY: Record<WidgetFamily, FamilyRules> = {
  discount: {
    group: 'forms',
    sub: 'discounts',
    fields: 'email',
    layouts: ['modal', 'slide-in', 'fullscreen', 'sidebar', 'panel', 'modal', 'inline', 'slide-in', 'bar', 'modal', 'sidebar'],
    arts: ['percent', 'gift', 'tag'],
    success: [
      ['Your code is here', 'Use it at checkout. We also sent it to your inbox.'],
      ['It is all yours', 'Copy the code below and paste it at checkout.'],
      ['Welcome aboard!', 'Here is your code. It works on your first order.'],
    ],
  },
  subscribe: {
    group: 'forms',
    sub: 'subscription',
    fields: 'email',
    layouts: ['inline', 'slide-in', 'modal', 'bar', 'panel', 'sidebar', 'inline', 'fullscreen', 'slide-in', 'modal'],
    arts: ['envelope'],
    success: [
      ['You are on the list', 'Check your inbox for a welcome note.'],
      ['Thanks for subscribing', 'Your first email is on its way.'],
      ['Welcome in', 'Look out for our next letter. It is a good one.'],
    ],
  },
  feedback: {
    group: 'forms',
    sub: 'feedback',
    fields: 'rating',
    layouts: ['slide-in', 'modal', 'panel', 'sidebar', 'inline', 'slide-in', 'modal'],
    arts: ['stars'],
    success: [
      ['Thank you!', 'Your answer went straight to our team.'],
      ['Got it, thanks', 'We read every response.'],
      ['Much appreciated', 'Your feedback helps us get better.'],
    ],
  },
  age: {
    group: 'forms',
    sub: 'age-gates',
    fields: 'none',
    layouts: ['fullscreen', 'modal', 'fullscreen', 'panel'],
    arts: ['idcard'],
    success: [
      ['Welcome in', 'Thanks for confirming. Please enjoy responsibly.'],
      ['Come on in', 'Your answer is remembered for 30 days.'],
    ],
  },
  product: {
    group: 'forms',
    sub: 'filters',
    fields: 'gift-finder',
    layouts: ['modal', 'sidebar', 'inline', 'panel', 'slide-in', 'fullscreen'],
    arts: ['sliders'],
    success: [
      ['We found 6 matches', 'Your filtered picks are ready to browse.'],
      ['Here is your edit', 'We narrowed the store down to what fits.'],
      ['Matches ready', 'Scroll down to see the products we picked.'],
    ],
  },
  sale: {
    group: 'messages',
    sub: 'sales',
    fields: 'none',
    layouts: ['bar', 'slide-in', 'modal', 'panel', 'fullscreen', 'bar', 'sidebar', 'slide-in'],
    arts: ['tag'],
    success: [
      ['Here is your code', 'It applies to everything in the sale.'],
      ['Code unlocked', 'Paste it at checkout before the sale ends.'],
      ['Deal saved', 'Copy the code and happy shopping.'],
    ],
  },
  announce: {
    group: 'messages',
    sub: 'notifications',
    fields: 'none',
    layouts: ['bar', 'slide-in', 'panel', 'modal', 'bar', 'sidebar'],
    arts: ['megaphone'],
    success: [
      ['Thanks!', 'We will keep you posted.'],
      ['See you soon', 'You are on the guest list.'],
    ],
  },
  whatsapp: {
    group: 'messages',
    sub: 'whatsapp',
    fields: 'wa-message',
    layouts: ['slide-in', 'panel', 'sidebar', 'slide-in', 'modal'],
    arts: ['chat'],
    success: [
      ['Message sent', 'We will reply on WhatsApp in a few minutes.'],
      ['Thanks, we are on it', 'Keep WhatsApp open: our answer is coming.'],
    ],
  },
  launcher: {
    group: 'launchers',
    sub: null,
    fields: 'none',
    layouts: ['slide-in', 'sidebar', 'panel', 'modal', 'slide-in'],
    arts: ['sparkle'],
    success: [
      ['Done!', 'Thanks, that is all we needed.'],
      ['All set', 'We have got your details.'],
    ],
  },
  inspired: {
    group: 'inspired-by-brands',
    sub: null,
    fields: 'email',
    layouts: ['modal', 'fullscreen', 'slide-in', 'sidebar', 'inline', 'panel', 'bar', 'modal'],
    arts: ['sparkle'],
    success: [
      ['Welcome to the list', 'A first letter is waiting in your inbox.'],
      ['You are in', 'Expect something special soon.'],
    ],
  },
}

const AGENTS = [
  { name: 'Ana', role: 'Customer care', reply: 'Usually replies in 5 minutes' },
  { name: 'Tom', role: 'Order support', reply: 'Usually replies in 10 minutes' },
  { name: 'Mira', role: 'Personal stylist', reply: 'Online now' },
  { name: 'Luca', role: 'Reservations', reply: 'Replies within 15 minutes' },
  { name: 'Priya', role: 'Sales team', reply: 'Usually replies in an hour' },
]

// ---------------------------------------------------------------- groups

const icon = (shapes: string) => `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">${shapes}</svg>`

const groupsFile: WidgetGroupsFile = {
  groups: [
    {
      value: 'halloween',
      name: 'Halloween',
      slug: 'halloween',
      hidden: false,
      subs: [],
      special: {
        icon: icon('<ellipse cx="12" cy="14" rx="9" ry="7.5" fill="#f07d12"/><ellipse cx="12" cy="14" rx="3.5" ry="7.5" fill="#d86608"/><rect x="11" y="4" width="2" height="4" rx="1" fill="#3b5d1e"/><path d="M8 12l2-2 2 2zm4 0l2-2 2 2zm-4 5q4 3 8 0" fill="#2b1700"/>'),
        start: 0,
        disabled: false,
        extensions: [
          { type: 'link', data: { url: '/email-countdown-timer-generator/', text: 'Make a Halloween countdown for your emails' } },
          { type: 'link', data: { url: '/usecase/build-email-list/', text: 'Grow your list before the holidays' } },
        ],
      },
    },
    {
      value: 'black-friday',
      name: 'Black Friday',
      slug: 'black-friday',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<rect x="3" y="5" width="18" height="14" rx="3" fill="#111"/><path d="M7 15l10-6" stroke="#ffd400" stroke-width="2"/><circle cx="8" cy="9" r="1.6" fill="#ffd400"/><circle cx="16" cy="15" r="1.6" fill="#ffd400"/>'),
        start: 1,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/email-countdown-timer-generator/', text: 'Count down to Black Friday in your emails' } }],
      },
    },
    {
      value: 'christmas',
      name: 'Christmas',
      slug: 'christmas',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<path d="M12 2l6 8h-3l4 6h-4l3 4H6l3-4H5l4-6H6z" fill="#1f7a3a"/><rect x="11" y="19" width="2" height="3" fill="#6b3b12"/><circle cx="12" cy="3" r="1.5" fill="#f5c518"/>'),
        start: 2,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/image-slideshow-gif-generator/', text: 'Make a festive slideshow GIF' } }],
      },
    },
    {
      value: 'valentines-day',
      name: 'Valentine’s Day',
      slug: 'valentines-day',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<path d="M12 21s-8-5-8-11a4.5 4.5 0 018-2.8A4.5 4.5 0 0120 10c0 6-8 11-8 11z" fill="#e0245e"/>'),
        start: 0,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/calligraphy-text-generator/', text: 'Write a love note in calligraphy' } }],
      },
    },
    {
      value: 'easter',
      name: 'Easter',
      slug: 'easter',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<path d="M12 2c4 0 7 7 7 12a7 7 0 01-14 0c0-5 3-12 7-12z" fill="#b794f4"/><path d="M5.5 13l2.2-1.6 2.1 1.6 2.2-1.6 2.1 1.6 2.2-1.6 2.2 1.6v1.5l-2.2-1.6-2.2 1.6-2.1-1.6-2.2 1.6-2.1-1.6-2.2 1.6z" fill="#fbd38d"/>'),
        start: 0,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/email-countdown-timer-generator/', text: 'Count down to the Easter weekend' } }],
      },
    },
    {
      value: 'earth-day',
      name: 'Earth Day',
      slug: 'earth-day',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<circle cx="12" cy="12" r="9" fill="#2b8fd6"/><path d="M7 6c2 1 1 3 3 3.5s2 2.5.5 3.5-3.5 1-3 3.5-1.5 2-2.5 1C4 16 3 13.5 3 12c0-2.5 1.5-4.8 4-6zm9.5 2c1.5.5 3 2.5 3.5 4.5-1.5 0-2 1-3 .5s-2-1.5-1-2.5 0-2 .5-2.5z" fill="#3fb950"/>'),
        start: 0,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/usecase/make-announcements/', text: 'Announce your green pledge' } }],
      },
    },
    {
      value: 'mothers-day',
      name: 'Mother’s Day',
      slug: 'mothers-day',
      hidden: true,
      subs: [],
      special: {
        icon: icon('<circle cx="12" cy="7" r="3.5" fill="#f687b3"/><circle cx="16.5" cy="10.5" r="3.5" fill="#f687b3"/><circle cx="14.5" cy="15.5" r="3.5" fill="#f687b3"/><circle cx="9.5" cy="15.5" r="3.5" fill="#f687b3"/><circle cx="7.5" cy="10.5" r="3.5" fill="#f687b3"/><circle cx="12" cy="12" r="3" fill="#f6e05e"/>'),
        start: 0,
        disabled: false,
        extensions: [{ type: 'link', data: { url: '/calligraphy-text-generator/', text: 'Write “Happy Mother’s Day” in calligraphy' } }],
      },
    },
    {
      value: 'forms',
      name: 'Forms',
      slug: 'forms',
      hidden: false,
      subs: [
        { value: 'discounts', name: 'Discounts', slug: 'discounts' },
        { value: 'subscription', name: 'Subscription', slug: 'subscription' },
        { value: 'feedback', name: 'Feedback', slug: 'feedback' },
        { value: 'age-gates', name: 'Age gates', slug: 'age-gates' },
        { value: 'filters', name: 'Filters', slug: 'filters' },
      ],
    },
    {
      value: 'messages',
      name: 'Messages',
      slug: 'messages',
      hidden: false,
      subs: [
        { value: 'sales', name: 'Sales', slug: 'sales' },
        { value: 'notifications', name: 'Notifications', slug: 'notifications' },
        { value: 'whatsapp', name: 'WhatsApp', slug: 'whatsapp' },
      ],
    },
    { value: 'launchers', name: 'Launchers', slug: 'launchers', hidden: false, subs: [] },
    { value: 'inspired-by-brands', name: 'Inspired by brands', slug: 'inspired-by-brands', hidden: false, subs: [] },
    { value: 'use-cases', name: 'Use cases', slug: 'use-cases', hidden: true, subs: [] },
  ],
  positions: [
    { value: 'slidein', name: 'Slidein', slug: 'slidein' },
    { value: 'bar', name: 'Bar', slug: 'bar' },
    { value: 'panel', name: 'Panel', slug: 'panel' },
    { value: 'modal', name: 'Modal', slug: 'modal' },
    { value: 'sidebar', name: 'Sidebar', slug: 'sidebar' },
    { value: 'fullscreen', name: 'Fullscreen', slug: 'fullscreen' },
    { value: 'inline', name: 'Inline', slug: 'inline' },
    { value: 'custom', name: 'Custom', slug: 'custom' },
  ],
}

/** Hue ranges that read as the season, walked in order. */
const SEASON_HUES: Record<string, { hues: number[]; variants: Variant[] }> = {
  halloween: { hues: [26, 275, 95, 18, 290, 34], variants: ['dark', 'neon', 'vivid', 'duotone', 'dark', 'cream'] },
  'black-friday': { hues: [50, 0, 190, 320, 48], variants: ['neon', 'dark', 'neon', 'dark', 'vivid'] },
  christmas: { hues: [355, 140, 45, 200, 350], variants: ['vivid', 'dark', 'cream', 'light', 'duotone'] },
  'valentines-day': { hues: [345, 330, 5, 320], variants: ['pastel', 'vivid', 'light', 'dark'] },
  easter: { hues: [50, 280, 160, 200, 20, 330], variants: ['pastel', 'pastel', 'light', 'pastel', 'cream', 'light'] },
  'earth-day': { hues: [120, 150, 200, 95, 170, 210], variants: ['light', 'duotone', 'pastel', 'dark', 'cream', 'vivid'] },
  'mothers-day': { hues: [320, 280, 20, 340, 300, 10], variants: ['pastel', 'light', 'cream', 'vivid', 'pastel', 'light'] },
}

// ---------------------------------------------------------------- assembly

function idFor(key: string, taken: Set<string>): string {
  for (let salt = 0; ; salt++) {
    const digest = createHash('sha256').update(salt ? `${key}#${salt}` : key).digest()
    let id = ''
    for (let index = 0; id.length < 8; index++) id += (digest[index]! % 36).toString(36)
    if (!/[0-9]/.test(id)) id = id.slice(0, 7) + String(digest[20]! % 10)
    if (!taken.has(id)) {
      taken.add(id)
      return id
    }
  }
}

const FONTS: WidgetStyle['font'][] = ['sans', 'serif', 'rounded', 'mono', 'condensed', 'slab']
const SHAPES: WidgetStyle['shape'][] = ['soft', 'round', 'square', 'pill', 'notched']
const FRAMES: WidgetStyle['frame'][] = ['shadow', 'outline', 'offset', 'none', 'double', 'glow', 'shadow']
const PATTERNS: WidgetStyle['pattern'][] = ['none', 'dots', 'waves', 'stripes', 'none', 'grid', 'diagonal', 'confetti', 'rays']
const PLACEMENTS: WidgetStyle['artPlacement'][] = ['left', 'top', 'right', 'background', 'badge', 'top', 'left', 'none']
const ANIMATIONS: WidgetStyle['animation'][] = ['slide', 'zoom', 'fade', 'bounce', 'drop', 'flip']
const HEADLINES: WidgetStyle['headlineStyle'][] = ['bold', 'light', 'caps', 'italic', 'huge', 'bold']
const WIDTHS = [360, 420, 480, 540, 400, 600, 380, 460]

const toPosition = (layout: WidgetLayout): WidgetPosition => (layout === 'slide-in' ? 'slidein' : layout)

function placementFor(layout: WidgetLayout, index: number): WidgetStyle['placement'] {
  switch (layout) {
    case 'slide-in':
      return index % 2 ? 'bottom-left' : 'bottom-right'
    case 'bar':
      return index % 3 === 2 ? 'bottom' : 'top'
    case 'sidebar':
      return index % 2 ? 'left' : 'right'
    case 'panel':
      return 'bottom'
    default:
      return 'center'
  }
}

function artPlacementFor(layout: WidgetLayout, cycled: WidgetStyle['artPlacement']): WidgetStyle['artPlacement'] {
  if (layout === 'bar') return cycled === 'none' ? 'none' : 'badge'
  if (layout === 'sidebar' && (cycled === 'left' || cycled === 'right')) return 'top'
  if (layout === 'slide-in' && cycled === 'right') return 'badge'
  return cycled
}

interface Entry {
  family: WidgetFamily
  line: CopyLine
  group?: string
  sub?: string | null
  extraTags: string[]
}

const templates: WidgetTemplate[] = []
const taken = new Set<string>()
const looks = new Set<string>()
const headlines = new Set<string>()
const familyCounters = new Map<string, number>()

function build(entry: Entry, globalIndex: number) {
  const [slugRaw, templateName, headline, text, buttonText, extra = {} as CopyExtra] = entry.line
  const rules = FAMILY[entry.family]
  const counter = familyCounters.get(entry.family) ?? 0
  familyCounters.set(entry.family, counter + 1)
  const slug = slugRaw.toLowerCase()
  const isCustom = templateName.includes('Custom')
  const key = `${entry.family}/${slug}`
  const id = idFor(key, taken)

  const presetName = extra.fields ?? (entry.family === 'launcher' ? (extra.code ? 'none' : 'none') : rules.fields)
  const fields = FIELD_PRESETS[presetName]
  if (!fields) throw new Error(`${key}: unknown fields preset ${presetName}`)

  let layout: WidgetLayout = extra.layout ?? rules.layouts[counter % rules.layouts.length]!
  if (layout === 'bar' && fields.length > 1) layout = 'slide-in'
  if (isCustom) layout = counter % 2 ? 'fullscreen' : 'modal'
  const position: WidgetPosition = isCustom ? 'custom' : toPosition(layout)

  const group = entry.group ?? rules.group
  const seasonal = SEASON_HUES[group]
  const seasonIndex = templates.filter((template) => template.group === group).length
  const hue = seasonal ? seasonal.hues[seasonIndex % seasonal.hues.length]! + Math.floor(seasonIndex / seasonal.hues.length) * 9 : Math.round((globalIndex * 137.508) % 360)
  const variant = seasonal ? seasonal.variants[seasonIndex % seasonal.variants.length]! : VARIANTS[(globalIndex * 3 + counter) % VARIANTS.length]!
  const needs: PaletteNeeds = {
    pattern: PATTERNS[(globalIndex * 7 + counter) % PATTERNS.length]!,
    artPlacement: artPlacementFor(layout, PLACEMENTS[(globalIndex + counter * 3) % PLACEMENTS.length]!),
    kicker: Boolean(extra.kicker),
    rating: fields.some((field) => field.type === 'rating'),
    countdown: Boolean(extra.countdown),
  }
  const colours = palette(hue, variant, needs)

  const art: ArtMotif = extra.art ?? rules.arts[counter % rules.arts.length]!
  const style: WidgetStyle = {
    palette: colours,
    font: FONTS[(globalIndex + counter) % FONTS.length]!,
    shape: isCustom ? 'notched' : SHAPES[globalIndex % SHAPES.length]!,
    frame: FRAMES[(globalIndex * 5 + 1) % FRAMES.length]!,
    pattern: needs.pattern,
    art,
    artPlacement: needs.artPlacement,
    align: (globalIndex + counter) % 3 === 0 ? 'left' : 'center',
    animation: ANIMATIONS[(globalIndex * 2 + counter) % ANIMATIONS.length]!,
    placement: placementFor(layout, globalIndex),
    width: WIDTHS[(globalIndex * 3) % WIDTHS.length]!,
    headlineStyle: HEADLINES[(globalIndex + counter * 2) % HEADLINES.length]!,
  }
  // Themed: about two templates in five offer a dark version; custom ones never do.
  const themed = !isCustom && !seasonal && (globalIndex % 5 === 0 || globalIndex % 5 === 3)
  const dark = themed ? palette(hue, variant === 'dark' || variant === 'neon' ? 'neon' : 'dark', needs) : undefined

  const buttonAction = fields.length ? 'submit' : entry.family === 'announce' && presetName === 'none' ? 'close' : 'reveal'
  const [successHeadline, successText] = extra.success ?? rules.success[counter % rules.success.length]!
  const agent = entry.family === 'whatsapp' ? AGENTS[counter % AGENTS.length] : undefined
  const tags = [...new Set([...(extra.tags ?? []), ...entry.extraTags])]

  const template: WidgetTemplate = {
    id,
    key,
    name: templateName,
    family: entry.family,
    layout,
    position,
    group,
    sub: entry.sub === undefined ? rules.sub : entry.sub,
    tags,
    copy: {
      ...(extra.kicker ? { kicker: extra.kicker } : {}),
      headline,
      text,
      ...(extra.note ? { note: extra.note } : fields.some((field) => field.type === 'email') ? { note: 'No spam. Unsubscribe any time.' } : {}),
    },
    fields,
    button: { text: buttonText, action: buttonAction },
    ...(extra.secondary ? { secondary: { text: extra.secondary } } : buttonAction !== 'close' && layout !== 'bar' && layout !== 'inline' && counter % 3 === 1 ? { secondary: { text: 'No, thanks' } } : {}),
    success: {
      headline: agent ? 'Message sent' : successHeadline,
      text: agent ? `${agent.name} will reply on WhatsApp shortly.` : successText,
      ...(extra.code ? { code: extra.code } : {}),
    },
    ...(entry.family === 'age' ? { refusal: { headline: 'Sorry, you cannot enter', text: 'This site is only for visitors of legal age. Come back when you are.' } } : {}),
    ...(extra.countdown ? { countdownMinutes: extra.countdown } : {}),
    ...(extra.launcher ? { launcher: { text: extra.launcher, icon: art } } : entry.family === 'whatsapp' ? { launcher: { text: 'Chat with us', icon: 'chat' as const } } : {}),
    ...(agent ? { agent } : {}),
    style,
    ...(dark ? { dark } : {}),
  }

  const unreadable = contrastProblems(template)
  if (unreadable.length) throw new Error(`${key}: colours do not read: ${unreadable.join('; ')}`)
  const look = `${colours.bg}|${colours.accent}|${art}|${layout}`
  if (looks.has(look)) throw new Error(`${key}: looks like another template (${look})`)
  looks.add(look)
  if (headlines.has(headline)) throw new Error(`${key}: headline used twice: ${headline}`)
  headlines.add(headline)
  templates.push(template)
}

const entries: Entry[] = []
const familyLines: [WidgetFamily, CopyLine[]][] = [
  ['discount', DISCOUNT],
  ['subscribe', SUBSCRIBE],
  ['feedback', FEEDBACK],
  ['age', AGE],
  ['product', PRODUCT],
  ['sale', SALE],
  ['announce', ANNOUNCE],
  ['whatsapp', WHATSAPP],
  ['launcher', LAUNCHER],
  ['inspired', INSPIRED],
]
for (const season of SEASONS) {
  const group = groupsFile.groups.find((candidate) => candidate.value === season.group)!
  for (const line of season.lines) entries.push({ family: line[5].family, line, group: season.group, sub: null, extraTags: [group.name.toLowerCase().replace('’', "'"), 'seasonal'] })
}
for (const [family, lines] of familyLines) for (const line of lines) entries.push({ family, line, extraTags: [] })
for (const line of USE_CASES) entries.push({ family: line[5].family, line, group: 'use-cases', sub: null, extraTags: ['use case'] })

entries.forEach((entry, index) => build(entry, index))

/** What the files hold; tests/unit/generated-data.test.ts regenerates them and compares with data/generated/. */
const generatedGroups = widgetGroupsFileSchema.parse(groupsFile)
const generatedTemplates = widgetTemplatesFileSchema.parse(templates)

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = outputFolder()
  fs.mkdirSync(out, { recursive: true })
  fs.writeFileSync(path.join(out, 'widget-groups.json'), `${JSON.stringify(generatedGroups, null, 2)}\n`)
  fs.writeFileSync(path.join(out, 'widget-templates.json'), `${JSON.stringify(generatedTemplates, null, 2)}\n`)
  console.log(`wrote ${generatedTemplates.length} widget templates in ${generatedGroups.groups.length} groups`)
}
