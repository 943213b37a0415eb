import { expect, test } from 'vitest'
import { nearestKey, rejectUnknownKeys } from '../../src/config/known-keys'
import { linked } from '../support/error-page'

const JUDGE = ['model', 'instructions', 'temperature', 'seed', 'maxRetries']

test('nearestKey names the known key a typo was meant to be', () => {
  expect(nearestKey('instrucions', JUDGE)).toBe('instructions')
  expect(nearestKey('modle', JUDGE)).toBe('model')
  expect(nearestKey('max_retries', JUDGE)).toBe('maxRetries')
  expect(nearestKey('MaxRetries', JUDGE)).toBe('maxRetries')
  expect(nearestKey('criterion', ['judge', 'model', 'criteria', 'options'])).toBe('criteria')
  expect(nearestKey('mdoe', ['mode', 'dir'])).toBe('mode')
})

test('nearestKey names nothing when no known key is close', () => {
  expect(nearestKey('calculateScore', JUDGE)).toBeUndefined()
  expect(nearestKey('judgeModel', ['judge', 'cassettes'])).toBeUndefined()
  expect(nearestKey('x', ['y'])).toBe('y')
  expect(nearestKey('xyz', ['abc'])).toBeUndefined()
})

test('rejectUnknownKeys throws RUBRICATE_USAGE for the first unknown key and accepts known ones', () => {
  expect(() => rejectUnknownKeys('f()', { model: 1, seed: 2 }, JUDGE)).not.toThrow()
  expect(() => rejectUnknownKeys('f()', { seed: 1, sed: 2 }, JUDGE)).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        '[rubricate] f() got an unknown option "sed". Did you mean "seed"? Known options: "model", "instructions", "temperature", "seed", "maxRetries".',
        'usage',
      ),
    }),
  )
})
