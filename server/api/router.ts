import express, { type Response } from 'express'
import { z } from 'zod'
import { parseIsoDate, todayUtc, upcomingHolidays, type HolidayDefinition } from '../../shared/holidays/holidays.js'
import type { AnswerMemory } from '../process/answer-memory.js'
import { badRequest, HttpError, jsonErrorHandler } from '../process/errors.js'
import { parseRequest } from '../process/validation.js'
import type { Galleries } from '../gallery/catalogs.js'
import { emailsApi } from '../gallery/emails-api.js'
import { openApiDocument } from './openapi.js'
import type { PriceList } from '../pricing/api.js'
import { widgetsApi } from '../gallery/widgets-api.js'

export interface ApiDependencies {
  prices: PriceList
  holidays: HolidayDefinition[]
  /** The galleries' catalogs, read with the rest of the site's data. */
  catalogs: Galleries['catalogs']
  now?: () => Date
  /** Where the galleries' answers are kept, for the server to send repeats before Express runs. */
  answers: AnswerMemory
}

/** The earliest and latest years the holiday rules are computed for. */
const HOLIDAY_YEARS = { min: 1583, max: 9998 }

const pricesQuery = z.object({ currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code').optional() })
const holidaysQuery = z.object({ from: z.string().optional() })

function publicJson(res: Response, body: unknown, maxAgeSeconds: number) {
  res.set('Cache-Control', `public, max-age=${maxAgeSeconds}`)
  res.json(body)
}

/** The site's own read-only JSON API, mounted at /api; errors are `{"error":{"code","message","field"}}`. */
export function createApiRouter({ prices, holidays, catalogs, now = () => new Date(), answers }: ApiDependencies): express.Router {
  const router = express.Router()

  router.use((_req, res, next) => {
    res.set('Access-Control-Allow-Origin', '*')
    next()
  })

  router.get('/prices', (req, res) => {
    const { currency } = parseRequest(pricesQuery, req.query, 'query')
    const body = prices.forCurrency(currency)
    if (!body) {
      const offered = prices.currencies.map((option) => option.code).join(', ')
      throw badRequest('currency', `must be one of ${offered}`)
    }
    publicJson(res, body, 300)
  })

  router.get('/holidays', (req, res) => {
    const query = parseRequest(holidaysQuery, req.query, 'query')
    const from = query.from === undefined ? todayUtc(now()) : parseIsoDate(query.from)
    if (!from) throw badRequest('from', 'must be a calendar date as YYYY-MM-DD')
    const year = from.getUTCFullYear()
    if (year < HOLIDAY_YEARS.min || year > HOLIDAY_YEARS.max) {
      throw badRequest('from', `year must be between ${HOLIDAY_YEARS.min} and ${HOLIDAY_YEARS.max}`)
    }
    publicJson(res, upcomingHolidays(holidays, from), 3600)
  })

  // The galleries' answers depend on the URL alone: kept, so that repeats are sent from memory.
  router.use(answers.record())
  router.use(widgetsApi(catalogs.widgets))
  router.use(emailsApi(catalogs.emails))

  router.get('/openapi.json', (_req, res) => publicJson(res, openApiDocument, 3600))

  router.use(() => {
    throw new HttpError(404, 'not_found', 'No such API endpoint.')
  })
  router.use(jsonErrorHandler)
  return router
}
