/**
 * The countdown's smallest facts, with nothing to import: its size, its captions' length, the
 * kinds of live timer, what one shows once ended, the days of the week. The pages that only show
 * or change a timer (a saved timer's edit page) take these without the generator's own rules.
 * `countdown.ts` and `live-timer.ts` give them out too.
 */

/** The longest caption the image service draws. */
export const CAPTION_MAX_LENGTH = 16
/** Width and height of the GIF in CSS pixels, with and without captions. */
export const COUNTDOWN_SIZE = { width: 600, height: 150, heightWithoutCaptions: 110 } as const

/** The GIF's height in CSS pixels: taller when it shows captions. */
export const countdownHeight = (withCaptions: boolean) => (withCaptions ? COUNTDOWN_SIZE.height : COUNTDOWN_SIZE.heightWithoutCaptions)

export const LIVE_TIMER_TYPES = ['fixed', 'per-recipient', 'evergreen', 'recurring'] as const
export type LiveTimerType = (typeof LIVE_TIMER_TYPES)[number]

export const EXPIRY_CHOICES = ['zeros', 'message', 'hide'] as const
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]
export const EXPIRY_NAMES: Readonly<Record<ExpiryChoice, string>> = { zeros: 'Show zeros', message: 'Show a message', hide: 'Hide the timer' }

/** Days of the week as the image service numbers them (Sunday 0), in the order a week is read here. */
export const WEEKDAYS = [
  [1, 'Mon'],
  [2, 'Tue'],
  [3, 'Wed'],
  [4, 'Thu'],
  [5, 'Fri'],
  [6, 'Sat'],
  [0, 'Sun'],
] as const

/** A saved timer's name and links, at most (as the image service checks them). */
export const SAVED_NAME_MAX = 100
export const LINK_MAX = 2_000
