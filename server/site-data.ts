/**
 * Everything the site shows, read once at start-up from one read-only folder, the content folder
 * (`<root>/data` unless told otherwise), each file through the one validating reader
 * (server/data-file.ts): a missing or bad file stops the start, naming it. The object is handed
 * down to whatever answers from it: the pages' loaders, the JSON API, the dashboard (widget
 * previews, email views, the app home, the subject-line composer), the clone links, the
 * thumbnails and the sitemap. Nothing reads the content folder after this, and no module keeps a
 * copy of its own.
 *
 *   const data = loadSiteData(config.contentDir)
 *
 * The writable folder of local state (`DATA_DIR`, config `stateDir`) is another folder.
 */
import path from 'node:path'
import type { HolidayDefinition } from '../shared/holidays/schema.js'
import type { HomeTemplateCards } from '../shared/home/home.route.js'
import type { SubjectPhrases } from '../shared/generators/subject-lines/schema.js'
import { loadContent, type ContentStore } from './content/store.js'
import { loadGalleries, type Galleries } from './gallery/catalogs.js'
import { loadGeneratorContent, type GeneratorContent } from './generators/content.js'
import { loadSubjectPhrases } from './generators/subject-lines/composer.js'
import { loadHolidayDefinitions } from './holidays/api.js'
import { homeTemplateCards } from './home/loader.js'
import { loadPriceList, type PriceList } from './pricing/api.js'

export interface SiteData {
  /** The folder it was read from. */
  contentDir: string
  /** Navigation, the home page's copy, FAQ, pages, blog, help and use cases. */
  content: ContentStore
  prices: PriceList
  holidays: HolidayDefinition[]
  /** The widget and email galleries: catalogs (API, dashboard, clone links) and listings (pages). */
  galleries: Galleries
  /** The generator pages' copy and examples, and the fonts they offer. */
  generators: GeneratorContent
  /** The offline subject-line composer's phrase banks. */
  subjectPhrases: SubjectPhrases
  /** The cards of the templates the home page names (an unknown id stops the start). */
  homeCards: HomeTemplateCards
}

export function loadSiteData(contentDir: string): SiteData {
  const content = loadContent(contentDir)
  const galleries = loadGalleries(contentDir)
  return {
    contentDir,
    content,
    prices: loadPriceList(contentDir),
    holidays: loadHolidayDefinitions(contentDir),
    galleries,
    generators: loadGeneratorContent(contentDir),
    subjectPhrases: loadSubjectPhrases(path.join(contentDir, 'subject-lines.json')),
    homeCards: homeTemplateCards(content.home, galleries),
  }
}
