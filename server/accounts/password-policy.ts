/**
 * What a new password must be. No composition rules (no "one digit, one symbol"): length, and
 * not guessable. Each refusal says why.
 *
 * - 8 to 128 characters, counted as Unicode code points (an emoji is one), nothing truncated;
 * - not one of the ~49,000 passwords most common in leaked password lists;
 * - not containing the name part of the account's email;
 * - not easy to guess by zxcvbn's estimate (score 2 of 4 at least), which catches keyboard
 *   walks, dates, repeats and dictionary words with obvious substitutions.
 */
import { createRequire } from 'node:module'
import type { ZxcvbnFactory } from '@zxcvbn-ts/core'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128

export const PASSWORD_MESSAGES = {
  tooShort: `Use at least ${PASSWORD_MIN} characters.`,
  tooLong: `Use at most ${PASSWORD_MAX} characters.`,
  common: 'This password is one of the most common leaked passwords. Choose another.',
  containsEmail: 'The password must not contain the name part of your email.',
  guessable: 'This password is too easy to guess.',
} as const

interface Estimator {
  zxcvbn: ZxcvbnFactory
  common: Set<string>
}

let estimator: Estimator | undefined

/** Loaded on first use: the dictionaries take a few megabytes and a moment to index. */
function loadEstimator(): Estimator {
  if (estimator) return estimator
  const require = createRequire(import.meta.url)
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core')
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common')
  const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en')
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  })
  estimator = { zxcvbn, common: new Set(common.dictionary['passwords-common'] as string[]) }
  return estimator
}

/** The name part of an email (`mary.smith` of `Mary.Smith+news@example.com`). */
function emailName(email: string): string {
  return email.split('@')[0]!.split('+')[0]!.toLowerCase()
}

/** Why the password is refused, or null when it is fine. */
export function checkPassword(password: string, email: string): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN) return PASSWORD_MESSAGES.tooShort
  if (length > PASSWORD_MAX) return PASSWORD_MESSAGES.tooLong
  const lower = password.toLowerCase()
  const { zxcvbn, common } = loadEstimator()
  if (common.has(lower)) return PASSWORD_MESSAGES.common
  const name = emailName(email)
  if (name.length >= 3 && lower.includes(name)) return PASSWORD_MESSAGES.containsEmail
  const result = zxcvbn.check(password, [name, ...name.split(/[._-]+/).filter((part) => part.length >= 3), 'poplift'])
  if (result.score < 2) return [PASSWORD_MESSAGES.guessable, result.feedback.warning].filter(Boolean).join(' ')
  return null
}
