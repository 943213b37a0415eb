import { expect, test } from 'vitest'
import { allRecords, collectRun, type FileTaskLike } from '../../reporters/collect-run'
import { record } from './records'

test('collects the records of every test by file, with full names, and counts skipped tests', () => {
  const rubric = record()
  const files: FileTaskLike[] = [
    {
      type: 'suite',
      name: 'b.test.ts',
      filepath: '/root/tests/b.test.ts',
      tasks: [
        {
          type: 'suite',
          name: 'support',
          tasks: [
            {
              type: 'test',
              name: 'refund',
              mode: 'run',
              result: { state: 'pass' },
              meta: { rubricate: [rubric] },
            },
            { type: 'test', name: 'skipped', mode: 'skip', meta: {} },
          ],
        },
        { type: 'test', name: 'plain', mode: 'run', result: { state: 'pass' }, meta: {} },
      ],
    },
    {
      type: 'suite',
      name: 'a.test.ts',
      filepath: '/root/a.test.ts',
      projectName: 'unit',
      meta: { rubricateCassettes: { mode: 'replay', dir: '/root/c', used: ['k'], misses: [] } },
      tasks: [{ type: 'test', name: 'todo', mode: 'todo', meta: {} }],
    },
    { type: 'suite', name: 'c.test.ts', filepath: '/root/c.test.ts', tasks: [] },
  ]
  const report = collectRun(files, '/root')
  expect(report).toEqual({
    skippedTests: 2,
    files: [
      {
        file: 'a.test.ts',
        project: 'unit',
        tests: [],
        cassettes: { mode: 'replay', dir: '/root/c', used: ['k'], misses: [] },
      },
      {
        file: 'tests/b.test.ts',
        tests: [{ name: 'refund', fullName: 'support > refund', state: 'pass', records: [rubric] }],
      },
    ],
  })
  expect(allRecords(report)).toEqual([rubric])
})

test('of several records of one loop only the last counts', () => {
  const first = record({ kind: 'loop', loopId: 'l1', status: 'fail' })
  const other = record({ kind: 'loop', loopId: 'l2' })
  const last = record({ kind: 'loop', loopId: 'l1', status: 'pass' })
  const report = collectRun(
    [
      {
        type: 'suite',
        name: 'a.test.ts',
        filepath: '/root/a.test.ts',
        tasks: [
          { type: 'test', name: 't', mode: 'run', meta: { rubricate: [first, other, last] } },
        ],
      },
    ],
    '/root',
  )
  expect(allRecords(report)).toEqual([other, last])
})
