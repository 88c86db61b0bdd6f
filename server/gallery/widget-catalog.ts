/**
 * The widget gallery in memory: data/generated/widget-groups.json and widget-templates.json, read
 * and checked once (a bad file stops the start with the file and the problem named), then
 * answered from indexes. `loadWidgetCatalog(contentDir)` reads it once, with the rest of the
 * site's data (server/site-data.ts); the API, the dashboard's previews and clone links, and the
 * listing pages all get that one copy.
 */
import { readDataFile } from '../data-file.js'
import fs from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { queryTemplates, type QueryResult, type TemplateQuery } from './query.js'
import { DEFAULT_CARD_WIDTH, templateImageUrl, templateRevision } from './thumbnail-manifest.js'
import type { WidgetPathIndex } from './widget-path.js'
import {
  widgetGroupsFileSchema,
  widgetTemplatesFileSchema,
  type WidgetGroupDefinition,
  type WidgetGroupsFile,
  type WidgetItem,
  type WidgetTemplate,
} from '../../shared/gallery/widget-schema.js'
import { GENERATED, projectRoot } from '../project-root.js'
import { renderWidget } from './widget-render.js'

export class WidgetCatalogError extends Error {
  override name = 'WidgetCatalogError'
}

/** A template with what the gallery derives from it. */
export interface CatalogTemplate extends WidgetTemplate {
  /**
   * Changes whenever what its card image shows does: the widget's markup and styles as drawn,
   * and the preview page's stylesheet (server/gallery/thumbnail-manifest.ts).
   */
  revision: string
  /** For the generic query: the one group it is listed in. */
  groups: readonly [string]
  searchText: string
  isCustom: boolean
  isInspiredCustom: boolean
  /** Custom templates keep their own colours: no light/dark choice. */
  hiddenTheme: boolean
  /** Whether the preview offers light and dark. */
  themed: boolean
}

export interface WidgetCatalog {
  /** Every group in listing order (specials first), hidden ones included. */
  groups: readonly WidgetGroupDefinition[]
  positions: WidgetGroupsFile['positions']
  /** Every template in listing order: by group, then as the data file lists them. */
  templates: readonly CatalogTemplate[]
  visibleGroups: ReadonlySet<string>
  byId(hid: string): CatalogTemplate | undefined
  group(slug: string): WidgetGroupDefinition | undefined
  /** The API's view of a template. */
  item(template: CatalogTemplate, width?: number): WidgetItem
  query(query: TemplateQuery): QueryResult<CatalogTemplate>
  /** Ids of the listing a template opens over (its group, and its sub when the group has subs). */
  collectionOf(template: CatalogTemplate): string[]
  /** For server/gallery/widget-path.ts. */
  pathIndex: WidgetPathIndex
}

const parseFile = <S extends z.ZodType>(file: string, schema: S) => readDataFile(file, schema, WidgetCatalogError)

/** Checks what the schemas cannot see alone; returns the problems found. */
function crossCheck(groups: WidgetGroupsFile, templates: WidgetTemplate[]): string[] {
  const problems: string[] = []
  const groupBySlug = new Map<string, WidgetGroupDefinition>()
  for (const group of groups.groups) {
    if (groupBySlug.has(group.slug)) problems.push(`group slug ${group.slug} used twice`)
    if (group.value !== group.slug) problems.push(`group ${group.slug}: value and slug differ`)
    groupBySlug.set(group.slug, group)
  }
  const ids = new Set<string>()
  const keys = new Set<string>()
  for (const template of templates) {
    const where = `template ${template.id} (${template.key})`
    if (ids.has(template.id)) problems.push(`${where}: id used twice`)
    if (keys.has(template.key)) problems.push(`${where}: key used twice`)
    ids.add(template.id)
    keys.add(template.key)
    if (groupBySlug.has(template.id)) problems.push(`${where}: id equals a group slug`)
    const group = groupBySlug.get(template.group)
    if (!group) {
      problems.push(`${where}: unknown group ${template.group}`)
      continue
    }
    if (group.subs.length && !group.subs.some((sub) => sub.slug === template.sub)) problems.push(`${where}: sub ${template.sub} is not a sub of ${group.slug}`)
    if (!group.subs.length && template.sub !== null) problems.push(`${where}: group ${group.slug} has no subs`)
    const custom = template.name.includes('Custom')
    if (custom !== (template.position === 'custom')) problems.push(`${where}: custom templates (and only they) have the position custom`)
    if (!custom && template.position !== (template.layout === 'slide-in' ? 'slidein' : template.layout)) problems.push(`${where}: position ${template.position} does not match layout ${template.layout}`)
    if (custom && template.dark) problems.push(`${where}: custom templates have no dark version`)
    if (template.button.action === 'submit' && !template.fields.length) problems.push(`${where}: a submit button needs fields`)
    if (template.fields.length && template.button.action !== 'submit') problems.push(`${where}: fields need a submit button`)
    const names = template.fields.map((field) => field.name)
    if (new Set(names).size !== names.length) problems.push(`${where}: field names repeat`)
  }
  return problems
}

export function loadWidgetCatalog(dir: string): WidgetCatalog {
  const groupsFile = parseFile(path.join(dir, GENERATED, 'widget-groups.json'), widgetGroupsFileSchema)
  const templateFile = parseFile(path.join(dir, GENERATED, 'widget-templates.json'), widgetTemplatesFileSchema)
  const problems = crossCheck(groupsFile, templateFile)
  if (problems.length) throw new WidgetCatalogError(`widget templates: ${problems.slice(0, 8).join('; ')}`)

  const groupOrder = new Map(groupsFile.groups.map((group, index) => [group.slug, index]))
  const groupBySlug = new Map(groupsFile.groups.map((group) => [group.slug, group]))
  const visibleGroups = new Set(groupsFile.groups.filter((group) => !group.hidden).map((group) => group.slug))

  // The card images are screenshots of the live preview: a change to the drawing code or the
  // page around the widget must make them stale as surely as a change to the data.
  const previewPageCss = fs.readFileSync(path.join(projectRoot, 'server', 'dashboard', 'static', 'preview.css'), 'utf8')
  const drawnRevision = (template: WidgetTemplate) => {
    const drawn = renderWidget(template)
    return templateRevision({ html: drawn.html, css: drawn.css, page: previewPageCss })
  }

  const templates: CatalogTemplate[] = templateFile
    .map((template, index) => ({ template, index }))
    .sort((a, b) => groupOrder.get(a.template.group)! - groupOrder.get(b.template.group)! || a.index - b.index)
    .map(({ template }) => {
      const isCustom = template.name.includes('Custom')
      const isInspiredCustom = template.name.startsWith('InspiredCustom')
      return {
        ...template,
        revision: drawnRevision(template),
        groups: [template.group] as const,
        searchText: [template.name, template.family, ...template.tags].join(' '),
        isCustom,
        isInspiredCustom,
        hiddenTheme: isCustom || isInspiredCustom,
        themed: Boolean(template.dark) && !isCustom,
      }
    })
  const byId = new Map(templates.map((template) => [template.id, template]))
  const collections = new Map<string, string[]>()
  for (const template of templates) {
    const listing = `${template.group}/${template.sub ?? ''}`
    let ids = collections.get(listing)
    if (!ids) collections.set(listing, (ids = []))
    ids.push(template.id)
  }

  const item = (template: CatalogTemplate, width = DEFAULT_CARD_WIDTH): WidgetItem => ({
    wid: template.id,
    id: template.id,
    name: template.name,
    type: template.position,
    group: template.group,
    sub: template.sub,
    img: templateImageUrl('widgets', template.id, template.revision, width),
    videoUrl: null,
    isInline: template.position === 'inline',
    isCustom: template.isCustom,
    isInspiredCustom: template.isInspiredCustom,
    hiddenTheme: template.hiddenTheme,
  })

  return {
    groups: groupsFile.groups,
    positions: groupsFile.positions,
    templates,
    visibleGroups,
    byId: (hid) => byId.get(hid),
    group: (slug) => groupBySlug.get(slug),
    item,
    query: (query) => queryTemplates(templates, query, { visibleGroups }),
    collectionOf: (template) => [...collections.get(`${template.group}/${template.sub ?? ''}`)!],
    pathIndex: {
      groups: groupsFile.groups,
      listingOf: (hid) => {
        const template = byId.get(hid)
        return template && { group: template.group, sub: template.sub }
      },
    },
  }
}
