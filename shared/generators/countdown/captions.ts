/**
 * Ready-made captions for the four parts of a countdown, in the languages the generator offers.
 * Every font of the countdown's lists that draws Cyrillic shows the Russian ones in its own face;
 * the others draw them in the shared fallback face.
 */
export interface CountdownCaptionSet {
  days: string
  hours: string
  minutes: string
  seconds: string
}

export const COUNTDOWN_CAPTION_PRESETS = {
  en: { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' },
  ru: { days: 'Дни', hours: 'Часы', minutes: 'Минуты', seconds: 'Секунды' },
} as const satisfies Record<string, CountdownCaptionSet>

export type CountdownCaptionLanguage = keyof typeof COUNTDOWN_CAPTION_PRESETS


/** What a live timer shows once its time is up, unless its maker wrote their own: in each caption language. */
export const END_MESSAGES: Readonly<Record<CountdownCaptionLanguage, string>> = {
  en: 'This offer has ended',
  ru: 'Акция завершена',
}

/** The longest message a live timer shows once its time is up. */
export const END_MESSAGE_MAX_LENGTH = 60

/** The language of a timer's captions: Russian when any of them is written in Cyrillic, else English (also when there are none). */
export function captionLanguage(captions: CountdownCaptionSet): CountdownCaptionLanguage {
  return [captions.days, captions.hours, captions.minutes, captions.seconds].some((caption) => /\p{Script=Cyrillic}/u.test(caption)) ? 'ru' : 'en'
}
