import { expect, test } from 'vitest'

// The judge under calibration: the examples' own, or the one named in RUBRICATE_JUDGE.
const judge = process.env.RUBRICATE_JUDGE ?? 'openai/gpt-4.1-mini'

// refund-labels.jsonl: 33 replies to the double-charge question, each labelled by a person against
// the three criteria of the refund rubric in support-agent.test.ts, near misses included.
test('the judge agrees with the support team on the refund rubric', async () => {
  await expect(judge).toAgreeWithLabels('./refund-labels.jsonl', {
    minKappa: 0.5,
    maxFalsePass: 0.2,
  })
})
