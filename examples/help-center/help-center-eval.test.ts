import {
  baselineFrom,
  createAnswerRelevanceScorer,
  createFaithfulnessScorer,
  createPreferenceScorer,
  createSimilarityScorer,
} from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { helpCenterBot, retrieve } from './help-center'

// Three questions, each answered from the articles the retriever finds. Each row is gated per
// scorer, and the suite on each scorer's mean: the preference mean is the share of rows where the
// new answer beats the stored baseline in both orders (a tie counts half).
describeEval('help-center answers, grounded and preferred', {
  data: [
    {
      input: 'I was charged twice, when do I get my refund?',
      expected: 'The duplicate charge is refunded to your card within 5 to 7 business days.',
    },
    {
      input: 'How long do deleted photos stay in the bin?',
      expected: 'Deleted photos are kept for 30 days.',
    },
    { input: 'How much is Lumen Plus?', expected: 'Lumen Plus is $4.99 a month.' },
  ],
  task: async (row) => (await helpCenterBot(String(row.input))).answer,
  scorers: [
    {
      // The retriever run again on the row's question: what the answer was built on.
      scorer: createFaithfulnessScorer({ context: (run) => retrieve(String(run.input)) }),
      threshold: 1,
      mean: 1,
    },
    { scorer: createAnswerRelevanceScorer(), threshold: 0.5, mean: 0.8 },
    {
      // Compared with the row's `expected`.
      scorer: createSimilarityScorer({ embedder: 'openai/text-embedding-3-small' }),
      threshold: 0.4,
      mean: 0.5,
    },
    {
      scorer: createPreferenceScorer({
        criteria: 'Tells the customer what will happen and when',
        baseline: baselineFrom('help-center/baseline.jsonl'),
      }),
      threshold: 0.5,
      mean: 0.6,
    },
  ],
  mean: 0.7,
})
