import type { CountdownSettings, QuickPick } from './countdown/countdown.js'
import type { LiveTimerChoices } from './countdown/live-timer.js'
import type { FontOption, FontOptionGroup, GeneratorPageBase } from './types.js'
import type { Holiday } from '../holidays/holidays.js'
import { definePage } from '../page-route.js'
import type { HolidayCalendarCopy } from './schema.js'
import type { ScrollingTextSettings } from './scrolling-text/scrolling-text.js'
import type { SubjectSettings } from './subject-lines/subject-lines.js'
import type { SlideshowSettings } from './slideshow/slideshow.js'
import type { TextImageSettings, TextStyleGroup } from './text-image/text-image.js'

export interface CountdownPageData extends GeneratorPageBase {
  /** The form as the URL sets it (defaults for anything missing or unusable). */
  settings: CountdownSettings
  /** The live timer's type and choices as the URL sets them; the browser fills in its own day and zone for what it leaves out. */
  timer: LiveTimerChoices
  fonts: FontOptionGroup[]
  /** Holidays 0 to 99 days ahead when the page was drawn; the browser asks /api/holidays again when its own day is another. */
  quickPicks: QuickPick[]
  /** The day (`YYYY-MM-DD`) quickPicks counts from. */
  quickPicksFrom: string
}

/** A saved timer's edit page: the page is the same for every timer; the timer is loaded with the key in the address's fragment. */
export interface SavedTimerPageData {
  id: string
  fonts: FontOptionGroup[]
  /** The countdown generator, for a new timer. */
  generatorPath: string
}

export interface ScrollingTextPageData extends GeneratorPageBase {
  settings: ScrollingTextSettings
  fonts: FontOptionGroup[]
}

export interface TextImagePageData extends GeneratorPageBase {
  settings: TextImageSettings
  /** The fonts of each style group, in the order the cards show them. */
  fonts: Record<TextStyleGroup, FontOption[]>
}

export interface SlideshowPageData extends GeneratorPageBase {
  /** The form as the URL sets it, images aside (they are uploaded on the page). */
  settings: SlideshowSettings
}

export interface SubjectLinePageData extends GeneratorPageBase {
  settings: SubjectSettings
}

export interface HolidayCalendarData {
  copy: HolidayCalendarCopy
  /** Every holiday at its next date, nearest first, as of `today`. */
  holidays: Holiday[]
  /** The day (UTC) the list was made for. */
  today: string
  /** Where each holiday's countdown is made. */
  generatorPath: string
}

/** The free generators, one page each, and the holiday calendar that leads to the countdown. */
export const generatorPages = [
  definePage<CountdownPageData>()({ id: 'countdown-generator', path: 'email-countdown-timer-generator/', module: 'CountdownGenerator', load: () => import('./countdown/CountdownGenerator.js') }),
  definePage<SavedTimerPageData>()({ id: 'saved-timer', path: 'email-countdown-timer-generator/timers/:id/', module: 'SavedTimerPage', load: () => import('./countdown/SavedTimerPage.js') }),
  definePage<ScrollingTextPageData>()({ id: 'scrolling-text-generator', path: 'email-scrolling-text-gif-generator/', module: 'ScrollingTextGenerator', load: () => import('./scrolling-text/ScrollingTextGenerator.js') }),
  definePage<TextImagePageData>()({ id: 'text-image-generator', path: 'calligraphy-text-generator/', module: 'TextImageGenerator', load: () => import('./text-image/TextImageGenerator.js') }),
  definePage<SlideshowPageData>()({ id: 'slideshow-generator', path: 'image-slideshow-gif-generator/', module: 'SlideshowGenerator', load: () => import('./slideshow/SlideshowGenerator.js') }),
  definePage<SubjectLinePageData>()({ id: 'subject-line-generator', path: 'ai-subject-line-generator/', module: 'SubjectLineGenerator', load: () => import('./subject-lines/SubjectLineGenerator.js') }),
  definePage<HolidayCalendarData>()({ id: 'holiday-calendar', path: 'email-marketing-holiday-calendar/', module: 'HolidayCalendar', load: () => import('../holidays/HolidayCalendar.js') }),
] as const
