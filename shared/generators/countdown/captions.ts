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

