import { expect, test } from 'vitest'
import { count } from '../../src/messages'

test('a count is written as toLocaleString("en-US") writes it, without loading ICU', () => {
  const values = [0, 1, -1, 12, 999, 1000, -1000, 12_345, 123_456, 1_234_567, 2 ** 40, -(2 ** 52)]
  for (let n = 1; n < 2 ** 53; n = n * 7 + 3) values.push(n)
  for (const value of values) expect(count(value)).toBe(value.toLocaleString('en-US'))
})
