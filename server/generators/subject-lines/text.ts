/** Text clean-up shared by the composer and the model's answers. */

/** Pictographs and what joins or modifies them: variation selectors, ZWJ, skin tones, flags, keycaps. */
const EMOJI = /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}\uFE0F\u200D\u20E3]/gu

export function stripEmoji(text: string): string {
  return text.replace(EMOJI, ' ')
}

/** One line: control characters and runs of white space become single spaces, ends trimmed. */
export function collapseSpaces(text: string): string {
  return text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim()
}
