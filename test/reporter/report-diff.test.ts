import { expect, test } from 'vitest'
import type { FileReport } from '../../reporters/collect-run'
import { renderHtml } from '../../reporters/render-html'
import { diffReports } from '../../reporters/report-diff'
import { summariseRun } from '../../reporters/run-summary'
import { record, verdict } from './records'

type Verdicts = Parameters<typeof verdict>[]

function file(tests: Record<string, Verdicts[] | { scorer: string; score: number }>): FileReport {
  return {
    file: 'support.test.ts',
    tests: Object.entries(tests).map(([name, records]) => ({
      name,
      fullName: name,
      state: 'pass',
      records: Array.isArray(records)
        ? records.map((verdicts) => record({ verdicts: verdicts.map((args) => verdict(...args)) }))
        : [record({ kind: 'scorer', scorerId: records.scorer, score: records.score })],
    })),
  }
}

const before = file({
  'refund question': [
    [
      ['Apologises', true],
      ['Offers a refund', false, { reasoning: 'No refund.' }],
      ['Gives a date', false, { required: false }],
    ],
  ],
  'two assertions': [[['Short', true]], [['Polite', true]]],
  'not run this time': [[['Anything', true]]],
  tone: { scorer: 'tone', score: 0.8 },
})

const after = file({
  'refund question': [
    [
      ['Apologises', true],
      ['Offers a refund', true, { reasoning: 'It refunds the charge.' }],
      ['Names the agent', false],
    ],
  ],
  'two assertions': [[['Short', true]], [['Polite', false, { reasoning: 'Curt.' }]]],
  tone: { scorer: 'tone', score: 0.6 },
  'brand new': [[['Greets', true]]],
})

test('a flipped verdict, one that appeared or disappeared, and a moved score are told apart; a test that did not run is not compared', () => {
  const diff = diffReports([before], [after])
  expect(diff.verdicts).toEqual([
    expect.objectContaining({
      test: 'refund question',
      criterion: 'Offers a refund',
      change: 'flipped',
      before: 'unmet',
      after: 'met',
      required: true,
      reasoning: 'It refunds the charge.',
    }),
    expect.objectContaining({ criterion: 'Names the agent', change: 'added', after: 'unmet' }),
    expect.objectContaining({
      criterion: 'Gives a date',
      change: 'removed',
      before: 'optional-unmet',
    }),
    // The second assertion of a test is matched by its place, not mixed with the first.
    expect.objectContaining({
      test: 'two assertions',
      index: 1,
      assertion: 'rubric',
      criterion: 'Polite',
      change: 'flipped',
      before: 'met',
      after: 'unmet',
    }),
    expect.objectContaining({ test: 'brand new', criterion: 'Greets', change: 'added' }),
  ])
  expect(diff.scores).toEqual([
    { file: 'support.test.ts', test: 'tone', index: 0, scorer: 'tone', before: 0.8, after: 0.6 },
  ])
  expect(diff.notRun).toBe(1)
  expect(diffReports([after], [after])).toEqual({ verdicts: [], scores: [], notRun: 0 })
})

test('the page lists the changes, required flips first, and marks each changed verdict with what it was', () => {
  const report = { files: [after], skippedTests: 0 }
  const html = renderHtml(report, summariseRun(report, {}), {
    changes: { against: 'main-report.json', diff: diffReports([before], [after]) },
  })
  const section = html.slice(
    html.indexOf('<section id="changes">'),
    html.indexOf('</section>', html.indexOf('<section id="changes">')),
  )
  expect(section).toContain('<h2>Changes against main-report.json</h2>')
  expect(section).toContain(
    '2 verdicts flipped, 3 appeared or disappeared, 1 score moved. 1 test of it did not run here and is not compared.',
  )
  const rows = section.split('<tr data-change=').slice(1)
  expect(rows[0]).toContain('Offers a refund')
  expect(rows[0]).toContain('Required, unmet →')
  expect(rows.at(-1)).toContain('0.8 → 0.6')
  expect(rows[0]).toContain('<span class="kind">rubric</span> Offers a refund')
  // Each changed verdict of the rows says what it was; the second assertion's is its own.
  const changedTags = html
    .split('<li class="verdict"')
    .slice(1)
    .map((item) => [
      /<span class="crit">([^<]*)</.exec(item)?.[1],
      /<span class="tag changed">([^<]*)</.exec(item)?.[1],
    ])
    .filter(([, tag]) => tag !== undefined)
  expect(changedTags).toEqual([
    ['Offers a refund', 'changed: was required, unmet'],
    ['Names the agent', 'changed: new'],
    ['Polite', 'changed: was met'],
    ['Greets', 'changed: new'],
  ])
  // Without a previous report there is no section and no marked cell.
  const plain = renderHtml(report, summariseRun(report, {}))
  expect(plain).not.toContain('id="changes"')
  expect(plain).not.toContain('class="tag changed"')
})
