/**
 * The email gallery in memory: data/generated/email-groups.json, email-templates.json and each
 * template's rendered HTML and plain text in data/generated/emails/ (written by `npm run emails`), read and
 * checked once; a bad or missing file stops the start with the file and the problem named.
 * `loadEmailCatalog(contentDir)` reads it once, with the rest of the site's data
 * (server/site-data.ts); the API, the listing pages, the dashboard's email view and the clone
 * links all get that one copy.
 */
import { readDataFile } from '../data-file.js'
import fs from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { queryTemplates, type QueryResult, type TemplateQuery } from './query.js'
import { DEFAULT_CARD_WIDTH, templateImageUrl, templateRevision } from './thumbnail-manifest.js'
import {
  checkEmailCatalog,
  emailGroupsFileSchema,
  emailTemplatesFileSchema,
  type EmailGroupsFile,
  type EmailTemplate,
} from '../../shared/gallery/email-schema.js'
import { GENERATED } from '../project-root.js'

export class EmailCatalogError extends Error {
  override name = 'EmailCatalogError'
}

/** The literal the rendered emails put where the absolute address of their images goes. */
const EMAIL_ASSETS_MARK = '{{assets}}'
/** Where the site serves those images. */
export const EMAIL_ASSETS_PATH = '/email-assets'

export type EmailGroup = EmailGroupsFile['groups'][number]

/** A template with what the gallery derives from it. */
export interface CatalogEmail extends EmailTemplate {
  /** Changes whenever the rendered email changes: the card image and caches follow it. */
  revision: string
  searchText: string
  /** Size of the HTML as a mail client receives it (Gmail clips past about 102 KB). */
  bytes: number
}

export interface EmailItem {
  id: string
  name: string
  img: string
  videoUrl: string | null
  collection: string[]
}

export interface EmailCatalog {
  /** Every group in listing order, hidden ones included. */
  groups: readonly EmailGroup[]
  templates: readonly CatalogEmail[]
  visibleGroups: ReadonlySet<string>
  byId(hid: string): CatalogEmail | undefined
  group(slug: string): EmailGroup | undefined
  /** The ids of a group, in listing order. */
  idsOf(slug: string): string[]
  /** The API's view of a template in one of its groups (its first one by default). */
  item(template: CatalogEmail, group?: string, width?: number): EmailItem
  query(query: TemplateQuery): QueryResult<CatalogEmail>
  /** The rendered email, with its images pointing at `assetsBase`. */
  html(template: CatalogEmail, assetsBase: string): string
  text(template: CatalogEmail): string
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    throw new EmailCatalogError(`${file}: ${(error as Error).message}${(error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (run npm run emails)' : ''}`)
  }
}

const parseFile = <S extends z.ZodType>(file: string, schema: S) => readDataFile(file, schema, EmailCatalogError, readFile)

export function loadEmailCatalog(dir: string): EmailCatalog {
  const groupsFile = parseFile(path.join(dir, GENERATED, 'email-groups.json'), emailGroupsFileSchema)
  const templatesFile = parseFile(path.join(dir, GENERATED, 'email-templates.json'), emailTemplatesFileSchema)
  try {
    checkEmailCatalog(groupsFile.groups, templatesFile.templates)
  } catch (error) {
    throw new EmailCatalogError(`email templates: ${(error as Error).message}`)
  }

  const rendered = new Map<string, { html: string; text: string }>()
  const templates: CatalogEmail[] = templatesFile.templates.map((template) => {
    const html = readFile(path.join(dir, GENERATED, 'emails', `${template.id}.html`))
    const text = readFile(path.join(dir, GENERATED, 'emails', `${template.id}.txt`))
    rendered.set(template.id, { html, text })
    return {
      ...template,
      revision: templateRevision({ html, text }),
      searchText: [template.name, template.subject, ...template.tags].join(' '),
      bytes: Buffer.byteLength(html),
    }
  })
  const byId = new Map(templates.map((template) => [template.id, template]))
  const groupBySlug = new Map<string, EmailGroup>(groupsFile.groups.map((group) => [group.slug, group]))
  const visibleGroups = new Set<string>(groupsFile.groups.filter((group) => !group.hidden).map((group) => group.slug))
  const members = new Map<string, string[]>(groupsFile.groups.map((group) => [group.slug, templates.filter((template) => template.groups.includes(group.slug)).map((template) => template.id)]))

  return {
    groups: groupsFile.groups,
    templates,
    visibleGroups,
    byId: (hid) => byId.get(hid),
    group: (slug) => groupBySlug.get(slug),
    idsOf: (slug) => [...(members.get(slug) ?? [])],
    item: (template, group = template.groups[0]!, width = DEFAULT_CARD_WIDTH) => ({
      id: template.id,
      name: template.name,
      img: templateImageUrl('emails', template.id, template.revision, width),
      videoUrl: null,
      collection: [...(members.get(group) ?? [template.id])],
    }),
    query: (query) => queryTemplates(templates, query, { visibleGroups }),
    html: (template, assetsBase) => rendered.get(template.id)!.html.replaceAll(EMAIL_ASSETS_MARK, assetsBase),
    text: (template) => rendered.get(template.id)!.text,
  }
}
