/** The email gallery's part of /api/openapi.json (server/gallery/emails-api.ts). */
import { TEMPLATE_ID_PATTERN } from '../../shared/gallery/paths.js'
import { openApiParts } from './api-params.js'

const { errorResponse, json, notModified, allParameter, searchParameter, pagingParameters } = openApiParts
const groupParameter = (description: string) => ({ name: 'group', in: 'query', required: false, description, schema: { type: 'string', example: 'welcome-email-templates' } })

export const emailOpenApiPaths = {
  '/api/email-groups': {
    get: {
      summary: 'Email gallery groups with their counts',
      parameters: [allParameter('1 also lists the hidden Black Friday group (it keeps its slug).')],
      responses: { '200': json('Groups', 'EmailGroups'), '304': notModified, '400': errorResponse('Bad parameter') },
    },
  },
  '/api/emails': {
    get: {
      summary: 'Email templates, filtered by group, searched and paged, with counts per group',
      description: 'Without `group`, every template of a visible group. `collection` lists the ids of the group asked for (else the template’s first group).',
      parameters: [
        groupParameter('Group slug (the hidden one too).'),
        searchParameter('name, subject or tags'),
        ...pagingParameters,
      ],
      responses: { '200': json('A page of templates', 'EmailList'), '304': notModified, '400': errorResponse('Bad parameter (named in `field`)') },
    },
  },
  '/api/emails/{hid}': {
    get: {
      summary: 'One email template, with the ids of its group',
      parameters: [{ name: 'hid', in: 'path', required: true, schema: { type: 'string', pattern: TEMPLATE_ID_PATTERN } }, groupParameter('Which of its groups `collection` lists (its first by default).')],
      responses: {
        '200': json('The template', 'EmailDetail'),
        '304': notModified,
        '400': errorResponse('Malformed id or group'),
        '404': errorResponse('No such template'),
      },
    },
  },
} as const

export const emailOpenApiSchemas = {
  EmailItem: {
    type: 'object',
    required: ['id', 'name', 'img', 'videoUrl', 'collection'],
    properties: {
      id: { type: 'string', pattern: TEMPLATE_ID_PATTERN },
      name: { type: 'string' },
      img: { type: 'string', description: 'Card image (376 px wide WebP), with the template revision as `v`' },
      videoUrl: { type: ['string', 'null'] },
      collection: { type: 'array', items: { type: 'string' }, description: 'Ids of the group, itself included' },
    },
  },
  EmailDetail: {
    allOf: [
      { $ref: '#/components/schemas/EmailItem' },
      {
        type: 'object',
        required: ['subject', 'preheader', 'groups', 'bytes'],
        properties: {
          subject: { type: 'string' },
          preheader: { type: 'string' },
          groups: { type: 'array', items: { type: 'string' } },
          bytes: { type: 'integer', description: 'Size of the HTML; Gmail clips messages past about 102 KB' },
        },
      },
    ],
  },
  EmailList: {
    type: 'object',
    required: ['items', 'total', 'offset', 'limit', 'facets'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/EmailItem' } },
      total: { type: 'integer', minimum: 0 },
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 1 },
      facets: { type: 'object', required: ['group'], properties: { group: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } } },
    },
  },
  EmailGroups: {
    type: 'object',
    required: ['groups'],
    properties: {
      groups: {
        type: 'array',
        items: {
          type: 'object',
          required: ['group', 'name', 'slug', 'count', 'hidden'],
          properties: { group: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, count: { type: 'integer' }, hidden: { type: 'boolean' } },
        },
      },
    },
  },
} as const
