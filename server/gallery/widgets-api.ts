/**
 * The widget gallery's JSON: `GET /api/widget-groups`, `GET /api/widgets`, `GET /api/widgets/{hid}`.
 * Parameters name groups, subs and positions by slug; filtering, search, facets and paging are
 * server/gallery/query.ts, the data is server/gallery/widget-catalog.ts.
 */
import express from 'express'
import { z } from 'zod'
import type { WidgetGroupDefinition } from '../../shared/gallery/widget-schema.js'
import { TEMPLATE_ID } from '../../shared/gallery/paths.js'
import { badRequest, HttpError } from '../errors.js'
import type { WidgetCatalog } from './widget-catalog.js'
import { parseRequest } from '../validation.js'
import { allParam, DEFAULT_GALLERY_LIMIT, galleryJson, pagingParams, searchParam, slugParam } from './api-params.js'

const groupsQuery = z.object({ all: allParam.optional() })
const widgetsQuery = z.object({
  group: slugParam.optional(),
  sub: slugParam.optional(),
  position: slugParam.optional(),
  q: searchParam.optional(),
  ...pagingParams,
})

const svgDataUri = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`

export function widgetsApi(catalog: WidgetCatalog): express.Router {
  const router = express.Router()

  const counts = new Map<string, number>()
  for (const template of catalog.templates) {
    for (const key of [`group:${template.group}`, `sub:${template.group}/${template.sub}`]) counts.set(key, (counts.get(key) ?? 0) + 1)
    if (catalog.visibleGroups.has(template.group)) counts.set(`position:${template.position}`, (counts.get(`position:${template.position}`) ?? 0) + 1)
  }
  const count = (key: string) => counts.get(key) ?? 0

  const groupBody = (group: WidgetGroupDefinition) => ({
    value: group.value,
    name: group.name,
    slug: group.slug,
    count: count(`group:${group.slug}`),
    hidden: group.hidden,
    subs: group.subs.map((sub) => ({ value: sub.value, name: sub.name, slug: sub.slug, count: count(`sub:${group.slug}/${sub.slug}`) })),
  })
  const specialBody = (group: WidgetGroupDefinition) => ({
    group: group.value,
    name: group.name,
    disabled: group.special!.disabled,
    hidden: group.hidden,
    widgets: catalog.templates.filter((template) => template.group === group.slug).map((template) => template.id),
    extensions: [
      { type: 'icon', data: { src: svgDataUri(group.special!.icon) } },
      { type: 'start', data: { index: group.special!.start } },
      ...group.special!.extensions,
    ],
  })
  const groupsResponse = (all: boolean) => {
    const groups = catalog.groups.filter((group) => all || !group.hidden)
    return {
      groups: groups.map(groupBody),
      specials: groups.filter((group) => group.special).map(specialBody),
      positions: catalog.positions.map((position) => ({ ...position, count: count(`position:${position.value}`) })),
    }
  }
  const groupsVisible = groupsResponse(false)
  const groupsAll = groupsResponse(true)

  router.get('/widget-groups', (req, res) => {
    const { all } = parseRequest(groupsQuery, req.query, 'query')
    galleryJson(res, all === '1' || all === 'true' ? groupsAll : groupsVisible)
  })

  router.get('/widgets', (req, res) => {
    const query = parseRequest(widgetsQuery, req.query, 'query')
    const group = query.group === undefined ? undefined : catalog.group(query.group)
    if (query.group !== undefined && !group) throw badRequest('group', `unknown group "${query.group}"`)
    const subsInScope = group ? group.subs : catalog.groups.filter((candidate) => catalog.visibleGroups.has(candidate.slug)).flatMap((candidate) => candidate.subs)
    if (query.sub !== undefined && !subsInScope.some((sub) => sub.slug === query.sub)) {
      throw badRequest('sub', group ? `"${query.sub}" is not a sub of ${group.slug}` : `unknown sub "${query.sub}"`)
    }
    if (query.position !== undefined && !catalog.positions.some((position) => position.slug === query.position)) {
      throw badRequest('position', `must be one of ${catalog.positions.map((position) => position.slug).join(', ')}`)
    }
    const offset = query.offset ?? 0
    const limit = query.limit ?? DEFAULT_GALLERY_LIMIT
    const result = catalog.query({ group: group?.slug, sub: query.sub, position: query.position, q: query.q, offset, limit })

    // Every choice is listed, with 0 where nothing would be left, in the gallery's order.
    const groupFacet: Record<string, number> = {}
    for (const candidate of catalog.groups) {
      if (catalog.visibleGroups.has(candidate.slug) || candidate.slug === group?.slug) groupFacet[candidate.slug] = result.facets.group[candidate.slug] ?? 0
    }
    const subFacet: Record<string, number> = {}
    for (const sub of subsInScope) subFacet[sub.slug] = result.facets.sub[sub.slug] ?? 0
    const positionFacet: Record<string, number> = {}
    for (const position of catalog.positions) positionFacet[position.slug] = result.facets.position[position.value] ?? 0

    galleryJson(res, {
      items: result.items.map((template) => catalog.item(template)),
      total: result.total,
      offset,
      limit,
      facets: { group: groupFacet, sub: subFacet, position: positionFacet },
    })
  })

  router.get('/widgets/:hid', (req, res) => {
    const hid = String(req.params.hid)
    if (!TEMPLATE_ID.test(hid)) throw badRequest('hid', 'must be 8 lowercase letters or digits')
    const template = catalog.byId(hid)
    if (!template) throw new HttpError(404, 'not_found', 'No such widget template.', 'hid')
    galleryJson(res, { ...catalog.item(template), collection: catalog.collectionOf(template) })
  })

  return router
}
