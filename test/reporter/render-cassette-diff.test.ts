// The job summary's section for re-recorded verdicts: one row per change, required flips counted
// in the heading, nothing when nothing changed.
import { expect, test } from 'vitest'
import { renderCassetteDiffMarkdown } from '../../reporters/render-cassette-diff'

test('a flipped required verdict and a changed score, as Markdown rows', () => {
  const markdown = renderCassetteDiffMarkdown(
    {
      tests: [
        {
          test: 'refund.test.ts > apologises | politely',
          changes: [
            {
              change: 'flipped',
              kind: 'verdict',
              criterion: 'Offers a refund',
              required: true,
              before: true,
              after: false,
              reasoning: 'No refund is offered.',
              models: ['judge-old', 'judge-new'],
            },
            {
              change: 'changed',
              kind: 'score',
              label: 'Rate the warmth',
              before: 0.5,
              after: 0.75,
              models: ['judge-old', 'judge-new'],
            },
          ],
        },
      ],
      requiredFlips: 1,
      judgements: { before: 5, after: 5 },
      unreadable: { before: 0, after: 0 },
    },
    '__cassettes__',
    'HEAD',
  )
  expect(markdown).toBe(
    [
      "### Verdicts changed by this run's recordings in __cassettes__ (against HEAD): 1 required verdict flipped",
      '',
      '| Test | Change | Criterion or score | Before | After | Judge |',
      '| --- | --- | --- | --- | --- | --- |',
      '| refund.test.ts &gt; apologises \\| politely | flipped | **[required]** Offers a refund | met | not met | judge-old → judge-new |',
      '| refund.test.ts &gt; apologises \\| politely | score changed | Rate the warmth | 0.5 | 0.75 | judge-old → judge-new |',
      '',
      '',
    ].join('\n'),
  )
})

test('no change, no section', () => {
  expect(
    renderCassetteDiffMarkdown(
      {
        tests: [],
        requiredFlips: 0,
        judgements: { before: 1, after: 1 },
        unreadable: { before: 0, after: 0 },
      },
      '__cassettes__',
      'HEAD',
    ),
  ).toBe('')
})
