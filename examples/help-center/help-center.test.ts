import { baselineFrom, createPreferenceScorer, modelCalls } from 'rubricate'
import { expect, test } from 'vitest'
import { helpCenterBot } from './help-center'

const question = 'I was charged twice, when do I get my refund?'

test('the refund answer means what the reference answer says', async () => {
  const { answer } = await helpCenterBot(question)
  // The embedding calls are recorded and replayed like the judge's; the score is in the report.
  await expect(answer).toBeSemanticallySimilarTo(
    'The duplicate charge is refunded to your card within 5 to 7 business days.',
    { embedder: 'openai/text-embedding-3-small', threshold: 0.6 },
  )
  // No model at all: 1 minus the normalised edit distance.
  await expect(answer).toBeSimilarByEditDistance(
    'A duplicate charge is refunded to the card you paid with, within 5 to 7 business days.',
    { threshold: 0.95 },
  )
})

test('the refund answer states only what the retrieved articles say', async () => {
  const { answer, context } = await helpCenterBot(question)
  await expect(answer).toBeGroundedIn(context, { input: question })
})

test('answering one question takes one model call and under 1,000 tokens', async () => {
  await helpCenterBot(question)
  await expect(modelCalls({ caller: 'agent' })).toStayWithinBudget({ maxCalls: 1, maxTokens: 1000 })
})

test('the new answer is preferred over the stored baseline, asked in both orders', async () => {
  const { answer } = await helpCenterBot(question)
  const preferred = createPreferenceScorer({
    criteria: 'Tells the customer what will happen and when',
    // The outputs of an earlier run, found by the question (a rubricate JSON report works too).
    baseline: baselineFrom('help-center/baseline.jsonl'),
  })
  await expect(answer).toPassScorer(preferred, { input: question })
})
