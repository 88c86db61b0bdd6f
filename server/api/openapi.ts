/** OpenAPI description of the site's public JSON API, served at /api/openapi.json. */
import { emailOpenApiPaths, emailOpenApiSchemas } from '../gallery/emails-openapi.js'
import { widgetOpenApiPaths, widgetOpenApiSchemas } from '../gallery/widgets-openapi.js'

const errorResponse = {
  description: 'Bad parameter',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
}

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Poplift site API',
    version: '1.0.0',
    description: 'Read-only, public data behind the marketing site: the widget and email template galleries (groups, listings with search and facet counts, single templates), plans and prices, and campaign holidays.',
  },
  paths: {
    ...widgetOpenApiPaths,
    ...emailOpenApiPaths,
    '/api/prices': {
      get: {
        summary: 'Plans with prices in every offered currency',
        parameters: [
          {
            name: 'currency',
            in: 'query',
            required: false,
            description: 'Three-letter code of the currency to mark as current; defaults to the site currency (RUB).',
            schema: { type: 'string', example: 'USD' },
          },
        ],
        responses: {
          '200': { description: 'Plans', content: { 'application/json': { schema: { $ref: '#/components/schemas/Prices' } } } },
          '400': errorResponse,
        },
      },
    },
    '/api/holidays': {
      get: {
        summary: 'Campaign holidays at their next occurrence, nearest first',
        parameters: [
          {
            name: 'from',
            in: 'query',
            required: false,
            description: 'Calendar date (YYYY-MM-DD) to count from; defaults to today in UTC. A holiday on that day is included.',
            schema: { type: 'string', format: 'date' },
          },
        ],
        responses: {
          '200': {
            description: 'Holidays',
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['title', 'value'],
                    properties: { title: { type: 'string' }, value: { type: 'string', format: 'date' } },
                  },
                },
              },
            },
          },
          '400': errorResponse,
        },
      },
    },
  },
  components: {
    schemas: {
      ...widgetOpenApiSchemas,
      ...emailOpenApiSchemas,
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
          },
        },
      },
      Currency: {
        type: 'object',
        required: ['code', 'flag', 'format'],
        properties: { code: { type: 'string' }, flag: { type: 'string' }, format: { type: 'string' } },
      },
      Price: {
        type: 'object',
        properties: {
          price: { type: 'number' },
          price_format: { type: 'string' },
          price_old: { type: ['number', 'null'] },
          price_old_format: { type: ['string', 'null'] },
          price_yearly: { type: 'number' },
          price_yearly_format: { type: 'string' },
        },
      },
      Plan: {
        type: 'object',
        properties: {
          resource_uri: { type: 'string' },
          id: { type: 'integer' },
          name: { type: 'string' },
          full_name: { type: 'string' },
          summary: { type: 'string' },
          prices: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Price' } },
          features: {
            type: 'object',
            properties: {
              SITES: { type: 'integer' },
              VIEWS: { type: ['integer', 'null'], description: 'Widget views a month; null means unlimited' },
              FEATURE_PRO: { type: 'boolean' },
              FEATURE_STORE_INTEGRATION: { type: 'boolean' },
              EMAILS_DISCOUNT: { type: 'number', description: 'Fraction off the base price per 1000 emails' },
            },
          },
        },
      },
      Prices: {
        type: 'object',
        properties: {
          plans: { type: 'array', items: { $ref: '#/components/schemas/Plan' } },
          currency: { $ref: '#/components/schemas/Currency' },
          currencies: { type: 'array', items: { $ref: '#/components/schemas/Currency' } },
          features: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, pro: { type: 'boolean' } },
            },
          },
        },
      },
    },
  },
} as const
