import { describe, expect, it } from 'vitest'
import { groupDigits } from '../../shared/numbers.js'

describe('groupDigits', () => {
  const values = [0, 7, 42, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 10_000_000, 2 ** 40, -5, -1000, -1_234_567]
  it.each(values)('writes %d as toLocaleString("en-US") does', (value) => {
    expect(groupDigits(value)).toBe(value.toLocaleString('en-US'))
  })

  it('groups every power of ten the same way', () => {
    for (let value = 1; value < 1e15; value *= 10) expect(groupDigits(value)).toBe(value.toLocaleString('en-US'))
  })
})
