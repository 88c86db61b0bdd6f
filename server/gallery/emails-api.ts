/**
 * The email gallery's JSON: `GET /api/email-groups`, `GET /api/emails`, `GET /api/emails/{hid}`.
 * A template can be in several groups; each item's `collection` lists the ids of the group it
 * was asked for (its first group otherwise), itself included. The data is
 * server/gallery/email-catalog.ts; filtering, search, facets and paging server/gallery/query.ts.
 */
import express from 'express'
import { z } from 'zod'
import { badRequest, HttpError } from '../process/errors.js'
import type { EmailCatalog, EmailGroup } from './email-catalog.js'
import { parseRequest } from '../process/validation.js'
import { galleryJson, groupsRoute, pageOf, pagingParams, searchParam, slugParam, templateIdOf } from './api-params.js'

const emailsQuery = z.object({ group: slugParam.optional(), q: searchParam.optional(), ...pagingParams })
const emailQuery = z.object({ group: slugParam.optional() })

export function emailsApi(catalog: EmailCatalog): express.Router {
  const router = express.Router()

  const groupBody = (group: EmailGroup) => ({
    group: group.name,
    name: group.name,
    slug: group.slug,
    count: catalog.idsOf(group.slug).length,
    hidden: group.hidden,
  })
  // The group lists never change while the process runs: both are built once.
  const groups = { visible: { groups: catalog.groups.filter((group) => !group.hidden).map(groupBody) }, all: { groups: catalog.groups.map(groupBody) } }

  const knownGroup = (slug: string | undefined) => {
    if (slug === undefined) return undefined
    const group = catalog.group(slug)
    if (!group) throw badRequest('group', `unknown group "${slug}"; one of ${catalog.groups.map((known) => known.slug).join(', ')}`)
    return group
  }

  router.get('/email-groups', groupsRoute(groups))

  router.get('/emails', (req, res) => {
    const query = parseRequest(emailsQuery, req.query, 'query')
    const group = knownGroup(query.group)
    const { offset, limit } = pageOf(query)
    const result = catalog.query({ group: group?.slug, q: query.q, offset, limit })
    // Every visible group (and the one asked for) is listed, with 0 where the search leaves none.
    const groupFacet: Record<string, number> = {}
    for (const candidate of catalog.groups) {
      if (!candidate.hidden || candidate.slug === group?.slug) groupFacet[candidate.slug] = result.facets.group[candidate.slug] ?? 0
    }
    galleryJson(res, {
      items: result.items.map((template) => catalog.item(template, group?.slug)),
      total: result.total,
      offset,
      limit,
      facets: { group: groupFacet },
    })
  })

  router.get('/emails/:hid', (req, res) => {
    const hid = templateIdOf(req)
    const group = knownGroup(parseRequest(emailQuery, req.query, 'query').group)
    const template = catalog.byId(hid)
    if (!template) throw new HttpError(404, 'not_found', 'No such email template.', 'hid')
    if (group && !template.groups.includes(group.slug)) throw badRequest('group', `the template is not in ${group.slug}`)
    galleryJson(res, {
      ...catalog.item(template, group?.slug),
      subject: template.subject,
      preheader: template.preheader,
      groups: template.groups,
      bytes: template.bytes,
    })
  })

  return router
}
