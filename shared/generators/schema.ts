/**
 * data/generators.json: the cards of the free generators and the copy of each generator page
 * (explanation, how-to, FAQ, examples drawn by the image service), and of the holiday calendar.
 * The server parses it at start-up (server/generators/content.ts); browser code imports types only.
 */
import { z } from 'zod'
import { seoSchema } from '../content/schema.js'

const sitePath = z.string().regex(/^\/[a-z0-9/-]*$/, 'must be a site path')
/** A file the site serves from public/, e.g. `/videos/countdown.webm`. */
const siteFile = z.string().regex(/^\/(?:[a-z0-9-]+\/)+[a-z0-9-]+\.[a-z0-9]+$/, 'must be a file path of the site')

/** A generator as a card linking to its page. */
export const generatorCardSchema = z.object({
  title: z.string().min(1),
  /** The generator's key: its page copy and examples are under this name. */
  name: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string().min(1),
  button: z.string().min(1),
  link: sitePath,
})

/**
 * An example result: a request the image service answers with an image. GET requests are shown
 * by their URL; POST requests are drawn beforehand into public/examples/ (npm run examples).
 */
export const generatorExampleSchema = z.object({
  alt: z.string().min(1),
  caption: z.string().min(1),
  request: z.discriminatedUnion('method', [
    z.object({ method: z.literal('GET'), path: z.string().regex(/^[a-z/-]+$/), query: z.record(z.string(), z.string()) }),
    z.object({
      method: z.literal('POST'),
      path: z.string().regex(/^[a-z/-]+$/),
      body: z.record(z.string(), z.unknown()),
      /** Slideshows: product photos of data/generated/emails/assets, uploaded first; their URLs become the body's `images`. */
      photos: z.array(z.string().regex(/^[a-z0-9-]+\.png$/)).min(1).max(10).optional(),
    }),
  ]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
})

const faqSchema = z.object({ title: z.string().min(1), items: z.array(z.object({ q: z.string().min(1), a: z.string().min(1) })).min(1).max(20) })

export const generatorPageCopySchema = seoSchema.extend({
  heading: z.string().min(1),
  intro: z.string().min(1),
  /** The submit button, idle and while the request runs. */
  submit: z.object({ idle: z.string().min(1), loading: z.string().min(1) }),
  examples: z.object({ title: z.string().min(1), items: z.array(generatorExampleSchema).max(6) }),
  explanation: z.object({ title: z.string().min(1), paragraphs: z.array(z.string().min(1)).min(1) }),
  howTo: z.object({ title: z.string().min(1), steps: z.array(z.string().min(1)).min(2).max(10) }),
  faq: faqSchema,
  /** A short video of the generator in use, opened in a popup. */
  video: z.object({ label: z.string().min(1), title: z.string().min(1), src: siteFile, poster: siteFile.optional() }).optional(),
})

export const holidayCalendarCopySchema = seoSchema.extend({
  heading: z.string().min(1),
  intro: z.string().min(1),
  /** The link text of each holiday, opening the countdown generator. */
  action: z.string().min(1),
  /** Shown instead of the link while the holiday is further away than a countdown reaches. */
  tooFar: z.string().min(1),
  faq: faqSchema,
})

export const generatorsFileSchema = z.object({
  /** Words every generator page shares. */
  labels: z.object({ others: z.string().min(1), showMore: z.string().min(1), result: z.string().min(1), resultEmpty: z.string().min(1) }),
  cards: z.array(generatorCardSchema).length(5),
  /** Copy of each generator page, by the card's name. */
  pages: z.record(z.string(), generatorPageCopySchema),
  holidayCalendar: holidayCalendarCopySchema,
})

export type GeneratorCard = z.infer<typeof generatorCardSchema>
export type GeneratorExampleDefinition = z.infer<typeof generatorExampleSchema>
export type GeneratorPageCopy = z.infer<typeof generatorPageCopySchema>
export type HolidayCalendarCopy = z.infer<typeof holidayCalendarCopySchema>
export type GeneratorLabels = z.infer<typeof generatorsFileSchema>['labels']
export type GeneratorsFile = z.infer<typeof generatorsFileSchema>

/** An example as a page shows it: the image's URL instead of the request. */
export type GeneratorExample = Omit<GeneratorExampleDefinition, 'request'> & { src: string }
