/**
 * Saving a timer on the countdown page: what is sent, the HTML and addresses handed out, and the
 * edit address (its key in the fragment, which browsers never send to a server). What the edit
 * page does with a saved timer is `saved-timer-edit.ts`. Plain functions, used by the page and the
 * tests.
 */
import { liveTimerSnippet, type CountdownSettings } from './countdown.js'
import { liveTimerBody, withMergeTag, type LiveTimerChoices, type LiveTimerType, type Platform } from './live-timer.js'
import type { SavedTimerView } from './saved-timer-edit.js'
import { escapeHtml } from '../html.js'

/** Where a saved timer is changed: under the generator's own address, one page per timer. */
export const SAVED_TIMER_PATH = '/email-countdown-timer-generator/timers/'

/** What the owner adds to a timer when saving it. */
export interface SavedExtras {
  name: string
  link: string
  linkExpired: string
}

export interface SavedAnswer {
  id: string
  url: string
  png_url: string
  link_url: string
  edit_key: string
  timer: SavedTimerView
}

/** The body of `POST countdown/timers`: the live timer's, and the owner's name and links (left out when empty). */
export function savedTimerBody(settings: CountdownSettings, choices: LiveTimerChoices, now: Date, timeZone: string, extras: SavedExtras) {
  return {
    ...liveTimerBody(settings, choices, now, timeZone),
    ...(extras.name.trim() ? { name: extras.name.trim() } : {}),
    ...(extras.link.trim() ? { link: extras.link.trim() } : {}),
    ...(extras.linkExpired.trim() ? { link_expired: extras.linkExpired.trim() } : {}),
  }
}

/** The edit address of a timer: its page, with the key in the fragment. */
export function editAddress(origin: string, id: string, key: string): string {
  return `${origin}${SAVED_TIMER_PATH}${encodeURIComponent(id)}/#key=${encodeURIComponent(key)}`
}

/** The HTML to paste: the live image (with its still PNG for Outlook), inside the `go` link when the timer has one. */
export function savedTimerSnippet(urls: { url: string; png_url: string; link_url?: string }, withCaptions: boolean): string {
  const image = liveTimerSnippet(urls, withCaptions)
  return urls.link_url ? `<a href="${escapeHtml(urls.link_url)}" target="_blank">\n${image}\n</a>` : image
}

/** The addresses handed out for a sending platform: each ends in its merge tag where the kind needs one. */
export function taggedAddresses(answer: Pick<SavedAnswer, 'url' | 'png_url' | 'link_url'>, type: LiveTimerType, platform: Platform, withLink: boolean) {
  return {
    url: withMergeTag(answer.url, type, platform),
    png_url: withMergeTag(answer.png_url, type, platform),
    ...(withLink ? { link_url: withMergeTag(answer.link_url, type, platform) } : {}),
  }
}
