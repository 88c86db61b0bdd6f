/**
 * The keys the giffer signs with (upload policies, live-timer URLs): the current secret signs;
 * it and the previous one, while a new one is rolled in, are accepted.
 */
import { timingSafeEqual } from 'node:crypto'

export interface SigningKeys {
  current: string
  accepted: string[]
}

export function signingKeys(secret: string, previous?: string): SigningKeys {
  return { current: secret, accepted: previous ? [secret, previous] : [secret] }
}

/** The accepted key with which `sign` makes `given`, compared in constant time; undefined when none does. */
export function signerOf(given: string, keys: SigningKeys, sign: (secret: string) => string): string | undefined {
  const candidate = Buffer.from(given)
  return keys.accepted.find((secret) => {
    const expected = Buffer.from(sign(secret))
    return expected.length === candidate.length && timingSafeEqual(expected, candidate)
  })
}

/** Whether `given` is what `sign` makes with one of the accepted keys. */
export function signedByAny(given: string, keys: SigningKeys, sign: (secret: string) => string): boolean {
  return signerOf(given, keys, sign) !== undefined
}
