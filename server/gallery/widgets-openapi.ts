/** The widget gallery's part of /api/openapi.json (server/gallery/widgets-api.ts). */
import { TEMPLATE_ID_PATTERN } from '../../shared/gallery/paths.js'
import { WIDGET_POSITIONS } from '../../shared/gallery/widget-schema.js'
import { openApiParts } from './api-params.js'

const { errorResponse, json, notModified, allParameter, searchParameter, pagingParameters } = openApiParts
const countMap = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } }

export const widgetOpenApiPaths = {
  '/api/widget-groups': {
    get: {
      summary: 'Widget gallery groups with their subs and counts, the seasonal specials, and the positions',
      parameters: [allParameter('1 also lists hidden groups and specials (they keep their slugs).')],
      responses: { '200': json('Groups', 'WidgetGroups'), '304': notModified, '400': errorResponse('Bad parameter') },
    },
  },
  '/api/widgets': {
    get: {
      summary: 'Widget templates, filtered, searched and paged, with facet counts',
      description: 'Without `group`, every template of a visible group. Facets count, for each choice, the templates it would leave under the other filters.',
      parameters: [
        { name: 'group', in: 'query', required: false, description: 'Group slug, e.g. `forms` (hidden groups too).', schema: { type: 'string', example: 'forms' } },
        { name: 'sub', in: 'query', required: false, description: 'Sub slug within the group, e.g. `discounts`.', schema: { type: 'string', example: 'discounts' } },
        { name: 'position', in: 'query', required: false, description: 'Position slug.', schema: { type: 'string', enum: [...WIDGET_POSITIONS] } },
        searchParameter('name, family or tags'),
        ...pagingParameters,
      ],
      responses: { '200': json('A page of templates', 'WidgetList'), '304': notModified, '400': errorResponse('Bad parameter (named in `field`)') },
    },
  },
  '/api/widgets/{hid}': {
    get: {
      summary: 'One widget template, with the ids of its listing',
      parameters: [{ name: 'hid', in: 'path', required: true, schema: { type: 'string', pattern: TEMPLATE_ID_PATTERN } }],
      responses: {
        '200': json('The template', 'WidgetDetail'),
        '304': notModified,
        '400': errorResponse('Malformed id'),
        '404': errorResponse('No such template'),
      },
    },
  },
} as const

export const widgetOpenApiSchemas = {
  WidgetItem: {
    type: 'object',
    required: ['wid', 'id', 'name', 'type', 'group', 'sub', 'img', 'videoUrl', 'isInline', 'isCustom', 'isInspiredCustom', 'hiddenTheme'],
    properties: {
      wid: { type: 'string', pattern: TEMPLATE_ID_PATTERN },
      id: { type: 'string', pattern: TEMPLATE_ID_PATTERN, description: 'Same as wid' },
      name: { type: 'string' },
      type: { type: 'string', enum: [...WIDGET_POSITIONS], description: 'Position' },
      group: { type: 'string' },
      sub: { type: ['string', 'null'] },
      img: { type: 'string', description: 'Card image (376 px wide WebP), with the template revision as `v`' },
      videoUrl: { type: ['string', 'null'] },
      isInline: { type: 'boolean' },
      isCustom: { type: 'boolean', description: 'The name contains "Custom"' },
      isInspiredCustom: { type: 'boolean', description: 'The name begins with "InspiredCustom"' },
      hiddenTheme: { type: 'boolean', description: 'No light/dark choice' },
    },
  },
  WidgetDetail: {
    allOf: [
      { $ref: '#/components/schemas/WidgetItem' },
      { type: 'object', required: ['collection'], properties: { collection: { type: 'array', items: { type: 'string' }, description: 'Ids of the listing the template belongs to, itself included' } } },
    ],
  },
  WidgetList: {
    type: 'object',
    required: ['items', 'total', 'offset', 'limit', 'facets'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/WidgetItem' } },
      total: { type: 'integer', minimum: 0 },
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 1 },
      facets: {
        type: 'object',
        required: ['group', 'sub', 'position'],
        properties: { group: countMap, sub: countMap, position: countMap },
      },
    },
  },
  WidgetGroups: {
    type: 'object',
    required: ['groups', 'specials', 'positions'],
    properties: {
      groups: {
        type: 'array',
        items: {
          type: 'object',
          required: ['value', 'name', 'slug', 'count', 'hidden', 'subs'],
          properties: {
            value: { type: 'string' },
            name: { type: 'string' },
            slug: { type: 'string' },
            count: { type: 'integer' },
            hidden: { type: 'boolean' },
            subs: {
              type: 'array',
              items: {
                type: 'object',
                required: ['value', 'name', 'slug', 'count'],
                properties: { value: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, count: { type: 'integer' } },
              },
            },
          },
        },
      },
      specials: {
        type: 'array',
        items: {
          type: 'object',
          required: ['group', 'disabled', 'hidden', 'widgets', 'extensions'],
          properties: {
            group: { type: 'string' },
            name: { type: 'string' },
            disabled: { type: 'boolean' },
            hidden: { type: 'boolean' },
            widgets: { type: 'array', items: { type: 'string' } },
            extensions: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'data'],
                properties: {
                  type: { type: 'string', enum: ['icon', 'start', 'link', 'video'] },
                  data: {
                    type: 'object',
                    properties: { src: { type: 'string' }, index: { type: 'integer' }, url: { type: 'string' }, text: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
      positions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['value', 'name', 'slug', 'count'],
          properties: { value: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, count: { type: 'integer' } },
        },
      },
    },
  },
} as const
