import { expect, test } from 'vitest'
import { renderTable, tallyGroups } from '../reliability/reliability-table'

test('the reliability table counts cases per group, in the order of the group numbers', () => {
  const tallies = tallyGroups([
    { group: '10. Later', name: 'a', state: 'passed' },
    { group: '2. Replies', name: 'b', state: 'passed' },
    { group: '2. Replies', name: 'c', state: 'failed', error: 'expected 1 to be 2' },
    { group: '2. Replies', name: 'd', state: 'skipped' },
    { group: 'test/reliability/extra.test.ts', name: 'e', state: 'passed' },
  ])
  expect(tallies.map((t) => [t.group, t.tried, t.asSpecified])).toEqual([
    ['2. Replies', 3, 1],
    ['10. Later', 1, 1],
    ['test/reliability/extra.test.ts', 1, 1],
  ])
  expect(renderTable(tallies)).toBe(
    [
      'Reliability: cases tried, and cases that behaved as specified',
      '',
      '  Group                           Tried  As specified',
      '  ---------------------------------------------------',
      '  2. Replies                          3      1  (33.3%)',
      '  10. Later                           1      1  (100%)',
      '  test/reliability/extra.test.ts      1      1  (100%)',
      '  ---------------------------------------------------',
      '  Total                               5      3  (60%)',
      '',
      'Misbehaved (2):',
      '  ✗ 2. Replies › c (failed)',
      '      expected 1 to be 2',
      '  ✗ 2. Replies › d (skipped)',
    ].join('\n'),
  )
})
