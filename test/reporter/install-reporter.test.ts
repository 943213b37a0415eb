import { expect, test } from 'vitest'
import type { Vitest } from 'vitest/node'
import { RubricateReporter, RubricateSummaryReporter } from '../../reporters/index'
import { installReporter } from '../../reporters/install-reporter'

function vitestWith(reporters: unknown[]): Vitest {
  return { config: { reporters } } as unknown as Vitest
}

test("adds RubricateReporter right after Vitest's default reporter, which stays as it was", () => {
  const vitest = vitestWith([
    ['junit', {}],
    ['default', { summary: false }],
    ['json', {}],
  ])
  installReporter(vitest, {})
  const [junit, vitestDefault, added, json] = vitest.config.reporters
  expect(junit).toEqual(['junit', {}])
  expect(vitestDefault).toEqual(['default', { summary: false }])
  expect(added).toBeInstanceOf(RubricateReporter)
  expect(json).toEqual(['json', {}])
  expect(vitest.config.reporters).toHaveLength(4)
})

test('RubricateReporter is a plain reporter, not a subclass of one of Vitest', () => {
  expect(Object.getPrototypeOf(RubricateReporter.prototype)).toBe(Object.prototype)
})

test('RubricateReporter refuses an option it does not know, naming the valid ones', () => {
  expect(() => new RubricateReporter({ summary: false } as never)).toThrow(
    /\[rubricate\].*"summary".*outputFile/s,
  )
})

test('adds the summary-only reporter when there is no default reporter to replace', () => {
  const vitest = vitestWith([['dot', {}]])
  installReporter(vitest, {})
  expect(vitest.config.reporters[0]).toEqual(['dot', {}])
  expect(vitest.config.reporters[1]).toBeInstanceOf(RubricateSummaryReporter)
})

test('installs one reporter however often it is asked (once per project)', () => {
  const vitest = vitestWith([['default', {}]])
  installReporter(vitest, {})
  installReporter(vitest, {})
  const json = vitestWith([['json', {}]])
  installReporter(json, {})
  installReporter(json, {})
  expect(vitest.config.reporters).toHaveLength(2)
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

function initWith(reporters: unknown[]): string[] {
  const logged: string[] = []
  const reporter = new RubricateReporter()
  const vitest = {
    config: {
      reporters: reporters.map((entry) => (entry === 'self' ? reporter : entry)),
      root: '/',
    },
    logger: { log: (line: string) => logged.push(line) },
  } as unknown as Vitest
  reporter.onInit(vitest)
  return logged
}

test("alone in the reporter list, RubricateReporter says to list Vitest's reporter beside it", () => {
  expect(initWith(['self'])).toEqual([
    "[rubricate] rubricate/reporter is the only reporter of this run, so Vitest's own list of tests and failures is not printed: rubricate's reporter prints only its verdicts and summary, beside Vitest's. List Vitest's reporter too: reporters: ['default', 'rubricate/reporter'] (or use the rubricate plugin, which adds its reporter for you).",
  ])
  expect(initWith([['default', {}], 'self'])).toEqual([])
})
