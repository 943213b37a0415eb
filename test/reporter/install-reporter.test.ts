import { expect, test } from 'vitest'
import type { Vitest } from 'vitest/node'
import { RubricateReporter, RubricateSummaryReporter } from '../../reporters/index'
import { installReporter } from '../../reporters/install-reporter'

function vitestWith(reporters: unknown[]): Vitest {
  return { config: { reporters } } as unknown as Vitest
}

test('replaces the default reporter with RubricateReporter, in place', () => {
  const vitest = vitestWith([
    ['junit', {}],
    ['default', { summary: false }],
  ])
  installReporter(vitest, {})
  const [junit, replaced] = vitest.config.reporters
  expect(junit).toEqual(['junit', {}])
  expect(replaced).toBeInstanceOf(RubricateReporter)
  expect(vitest.config.reporters).toHaveLength(2)
})

test('adds the summary-only reporter when there is no default reporter to replace', () => {
  const vitest = vitestWith([['dot', {}]])
  installReporter(vitest, {})
  expect(vitest.config.reporters[0]).toBeInstanceOf(RubricateSummaryReporter)
  expect(vitest.config.reporters[1]).toEqual(['dot', {}])
})

test('installs one reporter however often it is asked (once per project)', () => {
  const vitest = vitestWith([['default', {}]])
  installReporter(vitest, {})
  installReporter(vitest, {})
  const json = vitestWith([['json', {}]])
  installReporter(json, {})
  installReporter(json, {})
  expect(vitest.config.reporters).toHaveLength(1)
  expect(json.config.reporters).toHaveLength(2)
})

test('leaves the list alone when the user listed rubricate/reporter themselves', () => {
  const vitest = vitestWith([
    ['rubricate/reporter', {}],
    ['default', {}],
  ])
  installReporter(vitest, {})
  expect(vitest.config.reporters).toEqual([
    ['rubricate/reporter', {}],
    ['default', {}],
  ])
})
