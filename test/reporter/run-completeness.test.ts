import { expect, test } from 'vitest'
import { type RunFacts, runCompleteness } from '../../reporters/run-completeness'

const full: RunFacts = {
  reason: 'passed',
  unhandledErrors: 0,
  filesRun: 3,
  filesTotal: 3,
  skippedTests: 0,
  filesWithCassettesOff: 0,
}

test('a passing run of every file and test is complete', () => {
  expect(runCompleteness(full)).toEqual({ complete: true, reasons: [] })
})

test('each kind of partial run says why it is not complete', () => {
  const reasons = (facts: Partial<RunFacts>) => runCompleteness({ ...full, ...facts }).reasons
  expect(reasons({ reason: 'failed' })).toEqual(['it did not pass'])
  expect(reasons({ unhandledErrors: 1 })).toEqual(['it did not pass'])
  expect(reasons({ reason: 'interrupted' })).toEqual(['it was interrupted'])
  // -t also skips the tests it leaves out; that is said once.
  expect(reasons({ testNamePattern: 'refund', skippedTests: 4 })).toEqual([
    'it was filtered with -t "refund"',
  ])
  expect(reasons({ fileFilters: ['support'], filesRun: 1 })).toEqual([
    'it was filtered to files matching "support"',
  ])
  expect(reasons({ filesRun: 2 })).toEqual([
    'only 2 of 3 test files ran (a file filter, --changed, --related or --project)',
  ])
  expect(reasons({ shard: { index: 1, count: 2 }, filesRun: 2 })).toEqual([
    'it ran one shard (1/2); merge the shards with --merge-reports for a complete report',
  ])
  expect(reasons({ projectFilters: ['unit'] })).toEqual(['it ran only the project "unit"'])
  expect(reasons({ skippedTests: 1 })).toEqual([
    '1 test was skipped (.skip, .todo, .only or a tag filter)',
  ])
  expect(reasons({ filesWithCassettesOff: 2 })).toEqual([
    'cassettes were off in 2 test files, so their use was not recorded',
  ])
})

test('when the number of files in the suite is unknown, the file count decides nothing', () => {
  expect(runCompleteness({ ...full, filesTotal: undefined, filesRun: 1 }).complete).toBe(true)
})
