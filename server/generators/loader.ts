import { localIsoDate, quickPicks } from '../../shared/generators/countdown/countdown.js'
import { isoDate, parseIsoDate, todayUtc, upcomingHolidays } from '../../shared/holidays/holidays.js'
import type { PageIdOf } from '../../shared/page-route.js'
import type { generatorPages } from '../../shared/generators/generators.route.js'
import { countdownSettingsFromQuery, liveTimerChoicesFromQuery } from './countdown/query.js'
import { textImageSettingsFromQuery } from './text-image/query.js'
import { scrollingTextSettingsFromQuery } from './scrolling-text/query.js'
import { slideshowSettingsFromQuery } from './slideshow/query.js'
import { subjectSettingsFromQuery } from '../../shared/generators/subject-lines/subject-lines.js'
import { notFound, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'
import { SAVED_ID } from '../giffer/live/saved.js'

export const generatorLoaders = ({ generators: content, holidays, now: clock }: LoaderDependencies): RouteLoaders<PageIdOf<typeof generatorPages>> => {
  const fonts = content.fonts.gif
  const textFonts = content.fonts.textImage
  const countdownPath = content.file.cards.find((card) => card.name === 'countdown')!.link

  return {
    'countdown-generator': ({ request }) => {
      const now = clock()
      const query = new URL(request.url).searchParams
      return {
        ...content.page('countdown'),
        settings: countdownSettingsFromQuery(query, fonts, now),
        timer: liveTimerChoicesFromQuery(query, now),
        fonts,
        // The list and each pick's days ahead count from one day, this process's own.
        quickPicks: quickPicks(upcomingHolidays(holidays, parseIsoDate(localIsoDate(now))!), now),
        quickPicksFrom: localIsoDate(now),
      }
    },
    'saved-timer': ({ params }) => {
      // The id's shape only: whether it names a timer is known with its key, in the browser.
      if (!SAVED_ID.test(params.id ?? '')) throw notFound()
      return { id: params.id!, fonts, generatorPath: countdownPath }
    },
    'scrolling-text-generator': ({ request }) => ({
      ...content.page('scrolling-text'),
      settings: scrollingTextSettingsFromQuery(new URL(request.url).searchParams, fonts),
      fonts,
    }),
    'text-image-generator': ({ request }) => ({
      ...content.page('text-image'),
      settings: textImageSettingsFromQuery(new URL(request.url).searchParams),
      fonts: textFonts,
    }),
    'slideshow-generator': ({ request }) => ({
      ...content.page('slideshow'),
      settings: slideshowSettingsFromQuery(new URL(request.url).searchParams),
    }),
    'subject-line-generator': ({ request }) => ({
      ...content.page('subject-lines'),
      settings: subjectSettingsFromQuery(new URL(request.url).searchParams),
    }),
    'holiday-calendar': () => {
      const today = todayUtc(clock())
      return { copy: content.file.holidayCalendar, holidays: upcomingHolidays(holidays, today), today: isoDate(today), generatorPath: countdownPath }
    },
  }
}
