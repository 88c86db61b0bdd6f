/**
 * The slideshow generator's rules: which files the uploader takes, how many, the order of the
 * cards, the settings of each mode with their defaults and bounds, the query string that keeps
 * them in the address, and the image service request. Plain functions, used by the page, its
 * server loader and the tests alike.
 */

/** Photos in one slideshow. */
export const SLIDESHOW_MAX_IMAGES = 10
const MB = 1024 * 1024
/** The largest photo the image service takes (the page sends photos reduced far below it). */
export const UPLOAD_MAX_BYTES = 5 * MB
/** Width of the GIF in pixels. */
export const SLIDESHOW_WIDTH = 900
/** An upload signature serves every file for this long. */
export const SIGNATURE_CACHE_MS = 1_200_000
/**
 * What a signed upload key ends in, for the uploader to replace with the file's name (as S3
 * replaces it when left in the posted key).
 */
export const FILENAME_PLACEHOLDER = '${filename}'

/**
 * Types of the files the image service keeps: what the page sends once a photo is prepared, and
 * what the service checks a stored file's bytes against.
 */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export type UploadType = (typeof ACCEPTED_TYPES)[number]
/** The extension of each type in a stored file's name (`storedFileName`). */
export const STORED_EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const satisfies Record<UploadType, string>

/**
 * What the visitor may choose: the types the service keeps, and HEIC/HEIF, iPhones' own format,
 * which the page prepares (as a JPEG) where the browser can decode it. Listing HEIC also keeps
 * iOS from converting each photo before handing it over.
 */
export const CHOSEN_TYPES = [...ACCEPTED_TYPES, 'image/heic', 'image/heif'] as const
export type ChosenType = UploadType | 'image/heif'
/** The file input's `accept`: types and extensions both, as some systems give files no type. */
export const ACCEPT_ATTRIBUTE = [...CHOSEN_TYPES, ...['jpeg', 'jpg', 'png', 'webp', 'heic', 'heif'].map((extension) => `.${extension}`)].join(',')

export const MESSAGES = {
  unsupportedType: 'Unsupported file type.',
  tooBig: `File is too big (max ${UPLOAD_MAX_BYTES / MB} MB)`,
  tooManyPixels: 'Image is too large (max 100 megapixels).',
  unreadable: 'Can’t read this photo.',
  cannotPrepare: 'This browser can’t prepare photos for sending. Please try an up-to-date Chrome, Safari or Firefox.',
  uploadFailed: 'Can’t upload. Try again or choose another image.',
  signFailed: 'Can’t upload. Please try again later.',
  uploaderMissing: 'Can’t upload: part of this page did not load. Please check your connection and reload the page.',
  tooMany: `You can add up to ${SLIDESHOW_MAX_IMAGES} images.`,
  noImages: 'Please upload at least one image.',
  uploadsRunning: 'Something went wrong. Please wait for all images to upload and try again.',
  noSlideshow: 'Slideshow was not generated',
} as const

/**
 * A HEIC photo this browser cannot decode (every browser but Safari): how to send it as a JPEG
 * instead. Sharing a photo (by Mail, or any app from the share sheet) hands it over as a JPEG,
 * and "Most Compatible" makes the camera take JPEGs from then on.
 */
export function heicMessage(name: string): string {
  return `This browser can’t open HEIC photos: ${name}. Send it as a JPEG: share it from Photos (Mail sends a JPEG), or set the iPhone to Settings ▸ Camera ▸ Formats ▸ Most Compatible.`
}

/** What the uploader knows of a chosen file before preparing it: its first bytes (`TYPE_SNIFF_BYTES`) tell what it is. */
export interface ChosenFile {
  name: string
  size: number
  head: Uint8Array
}

/**
 * The real type of an image from its first bytes (12 are enough), whatever its name or the browser
 * says: a photo saved as `.png` may well be a JPEG.
 */
export function sniffImageType(head: Uint8Array): UploadType | null {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b)
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return null
}

/** How much of a chosen file is read to tell its type: a HEIF file's brands list may run past the first 12 bytes. */
export const TYPE_SNIFF_BYTES = 256

/** Brands of an HEIF file holding HEVC pictures (HEIC), or an image of any codec (`mif1`, `msf1`): what iPhones write. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1'])
/** AVIF shares the HEIF container and its `mif1` brand, but is not a phone's HEIC. */
const AVIF_BRANDS = new Set(['avif', 'avis'])

/** Whether the bytes start an HEIF file (HEIC): an `ftyp` box whose brands name it. */
export function isHeif(head: Uint8Array): boolean {
  if (head.length < 16 || String.fromCharCode(...head.subarray(4, 8)) !== 'ftyp') return false
  const boxEnd = Math.min(head.length, ((head[0]! << 24) >>> 0) + (head[1]! << 16) + (head[2]! << 8) + head[3]!)
  // The major brand, then (after the minor version) the compatible ones.
  const brands = [String.fromCharCode(...head.subarray(8, 12))]
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(String.fromCharCode(...head.subarray(at, at + 4)))
  return brands.some((brand) => HEIF_BRANDS.has(brand)) && !brands.some((brand) => AVIF_BRANDS.has(brand))
}

/** What a chosen file is by its bytes, whatever its name or label says: a type the page may prepare, or null. */
export function sniffChosenType(head: Uint8Array): ChosenType | null {
  return sniffImageType(head) ?? (isHeif(head) ? 'image/heif' : null)
}

/**
 * Why a chosen file cannot be used, known from its first bytes ('Unsupported file type.' with its
 * name when they are no image the page can prepare, or an empty file), or null. Its name and the
 * type the browser gives are no reason: a JPEG may come labelled `image/jpg`, `image/pjpeg` or
 * nothing at all, under any extension. Nor is its size: a photo of any size is reduced before it
 * is sent (photo-prepare.ts), far below the image service's 5 MB.
 */
export function fileProblem(file: ChosenFile): string | null {
  if (file.size === 0) return MESSAGES.uploadFailed
  if (!sniffChosenType(file.head)) return `${MESSAGES.unsupportedType} ${file.name}`
  return null
}

/**
 * Sorts newly chosen files into those to upload and the messages of the rest: files of another
 * type or empty, and those beyond the 10 images a slideshow holds (`present` are already there).
 */
export function triageFiles<F extends ChosenFile>(present: number, files: readonly F[]): { accepted: F[]; messages: string[] } {
  const accepted: F[] = []
  const messages: string[] = []
  let overflow = false
  for (const file of files) {
    const problem = fileProblem(file)
    if (problem) messages.push(problem)
    else if (present + accepted.length >= SLIDESHOW_MAX_IMAGES) overflow = true
    else accepted.push(file)
  }
  if (overflow) messages.push(MESSAGES.tooMany)
  return { accepted, messages: [...new Set(messages)] }
}

/** How many more images the uploader takes; its button is hidden at 0. */
export function slotsLeft(present: number): number {
  return Math.max(0, SLIDESHOW_MAX_IMAGES - present)
}

/**
 * The name a file is stored under, whatever the visitor's file was called: `photo-{n}.{ext}`, its
 * number under the signature it is sent with (1 to 10, as many as a slideshow takes) and the
 * extension of its real type. The service takes no other name, refuses a second file of a number
 * already taken (`photo-3.png` after `photo-3.jpg` too) and a name whose extension is not its
 * file's type.
 */
export function storedFileName(sequence: number, type: UploadType): string {
  return `photo-${sequence}.${STORED_EXTENSIONS[type]}`
}

/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list]
  if (from < 0 || from >= next.length) return next
  const target = Math.min(Math.max(to, 0), next.length - 1)
  const [item] = next.splice(from, 1)
  next.splice(target, 0, item!)
  return next
}

export function isRemoveKey(key: string): boolean {
  return key === 'Delete' || key === 'Backspace'
}

/** Where focus goes after the card at `index` of `length` is removed: the next card, else the one before, else none. */
export function focusAfterRemoval(index: number, length: number): number | null {
  if (length <= 1) return null
  return Math.min(index, length - 2)
}

// ---------------------------------------------------------------------------------------------
// Settings

export const SLIDESHOW_MODES = ['slideshow', 'row', 'trio', 'overlay'] as const
export type SlideshowMode = (typeof SLIDESHOW_MODES)[number]

/** Each mode's image service path: the slideshow is a row of one. */
export const MODE_PATHS: Readonly<Record<SlideshowMode, string>> = {
  slideshow: 'slideshow/create-row',
  row: 'slideshow/create-row',
  trio: 'slideshow/create-trio',
  overlay: 'slideshow/create-overlay',
}

/** Photo height as a multiple of its width. */
export const ASPECT_HEIGHTS = { '1:1': 1, '4:5': 5 / 4, '3:2': 2 / 3, '16:9': 9 / 16, '9:16': 16 / 9 } as const
export type Aspect = keyof typeof ASPECT_HEIGHTS
export const ASPECTS = Object.keys(ASPECT_HEIGHTS) as Aspect[]

/**
 * The long side, in pixels, of a photo as the page sends it and as the image service keeps it:
 * that of the largest card any shape draws (a slideshow of one, the GIF's width, in 9:16). A
 * photo with more is reduced to it first, in the browser, and by the service for clients that
 * send the original; every card is then drawn from at most this many pixels a side.
 */
export const PHOTO_LONG_SIDE = Math.round(SLIDESHOW_WIDTH * Math.max(...Object.values(ASPECT_HEIGHTS)))
/** JPEG quality of a reduced photo (0 to 1): the GIF keeps 256 colours a frame, far below what it loses. */
export const PHOTO_JPEG_QUALITY = 0.85
/**
 * The most pixels a chosen photo may have (the 108- and 200-megapixel modes of some phones pass it): decoding one
 * takes four bytes a pixel, on the phone that prepares it as on the server that reduces it.
 */
export const PHOTO_MAX_PIXELS = 100_000_000

/** Trio and overlay layouts: how much larger the front photo is; `-cut` lets the side photos run off the edge. */
export const LAYOUT_TWEAKS = { soft: 1.1, focus: 1.3, hero: 1.5 } as const
export const LAYOUTS = ['soft', 'focus', 'hero', 'soft-cut', 'focus-cut', 'hero-cut'] as const
export type Layout = (typeof LAYOUTS)[number]
/** Share of a side photo outside the frame in a `-cut` layout. */
export const CUT_OVERFLOW = 0.5

export function layoutTweak(layout: Layout): number {
  return LAYOUT_TWEAKS[layout.replace(/-cut$/, '') as keyof typeof LAYOUT_TWEAKS]
}

export function layoutOverflow(layout: Layout): number {
  return layout.endsWith('-cut') ? CUT_OVERFLOW : 0
}

/** Numeric settings: bounds, step and default, in the units the form shows. */
export const NUMBER_FIELDS = {
  /** Seconds each photo shows. */
  delay: { min: 0.1, max: 10, step: 0.1, default: 1.5 },
  /** Corner radius in pixels. */
  radius: { min: 0, max: 200, step: 1, default: 0 },
  /** Photos side by side in a row. */
  columns: { min: 2, max: 5, step: 1, default: 3 },
  /** Overlay veil, percent. */
  opacity: { min: 0, max: 100, step: 5, default: 50 },
  /** Border width in pixels. */
  border: { min: 0, max: 50, step: 1, default: 0 },
  /** Space between and around the photos, pixels. */
  gap: { min: 0, max: 100, step: 1, default: 0 },
} as const
export type NumberField = keyof typeof NUMBER_FIELDS

/** Everything the form holds except the images; the page keeps it in its URL. */
export interface SlideshowSettings {
  mode: SlideshowMode
  delay: number
  radius: number
  aspect: Aspect
  columns: number
  trio: Layout
  overlay: Layout
  opacity: number
  border: number
  /** `#rrggbb`. */
  borderColor: string
  gap: number
}

export const SLIDESHOW_DEFAULTS: Readonly<SlideshowSettings> = {
  mode: 'slideshow',
  delay: NUMBER_FIELDS.delay.default,
  radius: NUMBER_FIELDS.radius.default,
  aspect: '1:1',
  columns: NUMBER_FIELDS.columns.default,
  trio: 'focus',
  overlay: 'focus',
  opacity: NUMBER_FIELDS.opacity.default,
  border: NUMBER_FIELDS.border.default,
  borderColor: '#111827',
  gap: NUMBER_FIELDS.gap.default,
}

/** A number the form holds, kept within its field's bounds and on its steps; anything unreadable is the default. */
export function clampSetting(field: NumberField, value: number): number {
  const { min, max, step, default: fallback } = NUMBER_FIELDS[field]
  if (!Number.isFinite(value)) return fallback
  const stepped = Math.round(value / step) * step
  // Steps below 1 leave float noise (0.30000000000000004).
  return Math.min(max, Math.max(min, Number(stepped.toFixed(2))))
}

export function isSlideshowMode(value: unknown): value is SlideshowMode {
  return typeof value === 'string' && (SLIDESHOW_MODES as readonly string[]).includes(value)
}

/**
 * The settings as the page's query string: only what differs from the defaults, colours without
 * their `#`. The server reads the same names back (server/generators/slideshow/query.ts); the
 * form's fields carry them too, so it also works before its script has loaded.
 */
export function slideshowQuery(settings: SlideshowSettings): string {
  const query = new URLSearchParams()
  for (const name of Object.keys(SLIDESHOW_DEFAULTS) as (keyof SlideshowSettings)[]) {
    const value = settings[name]
    if (value === SLIDESHOW_DEFAULTS[name]) continue
    query.set(name, typeof value === 'string' ? value.replace(/^#/, '') : String(value))
  }
  return query.toString()
}

/** The request body of the mode's image service path, for the uploaded photos' URLs in order. */
export function slideshowRequest(settings: SlideshowSettings, images: readonly string[]) {
  const body: Record<string, unknown> = {
    images: [...images],
    delay: Math.round(clampSetting('delay', settings.delay) * 1000),
    radius: clampSetting('radius', settings.radius),
    width: SLIDESHOW_WIDTH,
    background: 'white',
    border_width: clampSetting('border', settings.border),
    border_color: settings.borderColor,
    spacing: clampSetting('gap', settings.gap),
    height: ASPECT_HEIGHTS[settings.aspect],
  }
  if (settings.mode === 'slideshow') body.count = 1
  if (settings.mode === 'row') body.count = clampSetting('columns', settings.columns)
  if (settings.mode === 'trio') Object.assign(body, { tweak: layoutTweak(settings.trio), overflow: layoutOverflow(settings.trio) })
  if (settings.mode === 'overlay') {
    Object.assign(body, {
      tweak: layoutTweak(settings.overlay),
      overflow: layoutOverflow(settings.overlay),
      overlay_color: 'black',
      overlay_opacity: clampSetting('opacity', settings.opacity) / 100,
    })
  }
  return body
}
