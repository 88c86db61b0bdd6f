/**
 * The widget gallery's JSON: `GET /api/widget-groups`, `GET /api/widgets`, `GET /api/widgets/{hid}`.
 * Parameters name groups, subs and positions by slug; filtering, search, facets and paging are
 * server/gallery/query.ts, the data is server/gallery/widget-catalog.ts.
 */
import express, { type Request, type Response } from 'express'
import { z } from 'zod'
import type { WidgetGroupDefinition } from '../../shared/gallery/widget-schema.js'
import { badRequest, HttpError } from '../process/errors.js'
import type { CatalogTemplate, WidgetCatalog } from './widget-catalog.js'
import type { QueryResult } from './query.js'
import { parseRequest } from '../process/validation.js'
import { galleryJson, groupsRoute, pageOf, pagingParams, searchParam, slugParam, templateIdOf } from './api-params.js'

const widgetsQuery = z.object({
  group: slugParam.optional(),
  sub: slugParam.optional(),
  position: slugParam.optional(),
  q: searchParam.optional(),
  ...pagingParams,
})

const svgDataUri = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`

/** The two answers of `/api/widget-groups`: the visible groups, and all of them. */
interface GroupsAnswers {
  visible: ReturnType<typeof groupsAnswer>
  all: ReturnType<typeof groupsAnswer>
}

/** Templates per group, per group's sub, and per position among the visible groups. */
function templateCounts(catalog: WidgetCatalog): (key: string) => number {
  const counts = new Map<string, number>()
  for (const template of catalog.templates) {
    for (const key of [`group:${template.group}`, `sub:${template.group}/${template.sub}`]) counts.set(key, (counts.get(key) ?? 0) + 1)
    if (catalog.visibleGroups.has(template.group)) counts.set(`position:${template.position}`, (counts.get(`position:${template.position}`) ?? 0) + 1)
  }
  return (key) => counts.get(key) ?? 0
}

const groupBody = (group: WidgetGroupDefinition, count: (key: string) => number) => ({
  value: group.value,
  name: group.name,
  slug: group.slug,
  count: count(`group:${group.slug}`),
  hidden: group.hidden,
  subs: group.subs.map((sub) => ({ value: sub.value, name: sub.name, slug: sub.slug, count: count(`sub:${group.slug}/${sub.slug}`) })),
})

const specialBody = (catalog: WidgetCatalog, group: WidgetGroupDefinition) => ({
  group: group.value,
  name: group.name,
  disabled: group.special!.disabled,
  hidden: group.hidden,
  widgets: catalog.templates.filter((template) => template.group === group.slug).map((template) => template.id),
  extensions: [{ type: 'icon', data: { src: svgDataUri(group.special!.icon) } }, { type: 'start', data: { index: group.special!.start } }, ...group.special!.extensions],
})

function groupsAnswer(catalog: WidgetCatalog, count: (key: string) => number, all: boolean) {
  const groups = catalog.groups.filter((group) => all || !group.hidden)
  return {
    groups: groups.map((group) => groupBody(group, count)),
    specials: groups.filter((group) => group.special).map((group) => specialBody(catalog, group)),
    positions: catalog.positions.map((position) => ({ ...position, count: count(`position:${position.value}`) })),
  }
}

/** The query's group, and the subs its `sub` may name (the group's, else every visible group's); a 400 for an unknown slug. */
function checkedFilter(catalog: WidgetCatalog, query: z.output<typeof widgetsQuery>) {
  const group = query.group === undefined ? undefined : catalog.group(query.group)
  if (query.group !== undefined && !group) throw badRequest('group', `unknown group "${query.group}"`)
  const subsInScope = group ? group.subs : catalog.groups.filter((candidate) => catalog.visibleGroups.has(candidate.slug)).flatMap((candidate) => candidate.subs)
  if (query.sub !== undefined && !subsInScope.some((sub) => sub.slug === query.sub)) {
    throw badRequest('sub', group ? `"${query.sub}" is not a sub of ${group.slug}` : `unknown sub "${query.sub}"`)
  }
  if (query.position !== undefined && !catalog.positions.some((position) => position.slug === query.position)) {
    throw badRequest('position', `must be one of ${catalog.positions.map((position) => position.slug).join(', ')}`)
  }
  return { group, subsInScope }
}

/** Every choice is listed, with 0 where nothing would be left, in the gallery's order. */
function widgetFacets(catalog: WidgetCatalog, result: QueryResult<CatalogTemplate>, filter: ReturnType<typeof checkedFilter>) {
  const group: Record<string, number> = {}
  for (const candidate of catalog.groups) {
    if (catalog.visibleGroups.has(candidate.slug) || candidate.slug === filter.group?.slug) group[candidate.slug] = result.facets.group[candidate.slug] ?? 0
  }
  const sub: Record<string, number> = {}
  for (const candidate of filter.subsInScope) sub[candidate.slug] = result.facets.sub[candidate.slug] ?? 0
  const position: Record<string, number> = {}
  for (const candidate of catalog.positions) position[candidate.slug] = result.facets.position[candidate.value] ?? 0
  return { group, sub, position }
}

function widgetList(catalog: WidgetCatalog, req: Request, res: Response) {
  const query = parseRequest(widgetsQuery, req.query, 'query')
  const filter = checkedFilter(catalog, query)
  const { offset, limit } = pageOf(query)
  const result = catalog.query({ group: filter.group?.slug, sub: query.sub, position: query.position, q: query.q, offset, limit })
  galleryJson(res, {
    items: result.items.map((template) => catalog.item(template)),
    total: result.total,
    offset,
    limit,
    facets: widgetFacets(catalog, result, filter),
  })
}

function widgetById(catalog: WidgetCatalog, req: Request, res: Response) {
  const template = catalog.byId(templateIdOf(req))
  if (!template) throw new HttpError(404, 'not_found', 'No such widget template.', 'hid')
  galleryJson(res, { ...catalog.item(template), collection: catalog.collectionOf(template) })
}

export function widgetsApi(catalog: WidgetCatalog): express.Router {
  const count = templateCounts(catalog)
  // The group lists never change while the process runs: both are built once.
  const groups: GroupsAnswers = { visible: groupsAnswer(catalog, count, false), all: groupsAnswer(catalog, count, true) }
  const router = express.Router()
  router.get('/widget-groups', groupsRoute(groups))
  router.get('/widgets', (req, res) => widgetList(catalog, req, res))
  router.get('/widgets/:hid', (req, res) => widgetById(catalog, req, res))
  return router
}
