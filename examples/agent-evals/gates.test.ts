import { describeEval } from 'rubricate/evals'
import { faqAgent } from '../dataset-eval/faq-agent'

// Gates per scorer. Six FAQ questions; the last one asks for a phone number the fact sheet does
// not have, so that row fails its rubric and its hedging gate, and a pass rate of 80% tolerates it.
// Beyond the rows, the suite gates on means: the fact scorer's mean must reach 0.8, hedging (lower
// is better) must stay at or under 0.2 on average, and the weighted mean of every scorer at 0.75.
describeEval('FAQ answers under per-scorer gates', {
  data: [
    { input: 'What storage comes with the free plan?', expected: '15 GB' },
    { input: 'What is the price of Lumen Plus?', expected: '$4.99 a month' },
    { input: 'Am I free to cancel Lumen Plus at any moment?', expected: 'cancel at any time' },
    { input: 'Is there a discount for students?', expected: '50% off' },
    { input: 'I live in Germany: where are my photos kept?', expected: 'Frankfurt' },
    { input: 'Is there a phone number for support?', expected: '+1 800 555 0142' },
  ],
  task: (row) => faqAgent(String(row.input)),
  // The row's `expected` reaches this judge too, as a reference answer.
  criteria: '- Answers the question that was asked',
  scorers: [
    {
      scorer: function mentionsExpectedFact({ output, expected }) {
        return String(output).includes(String(expected)) ? 1 : 0
      },
      threshold: 1,
      mean: 0.8,
    },
    {
      // Lower is better: 1 when the answer hedges instead of answering.
      scorer: function hedging({ output }) {
        return /not sure|I don't know/i.test(String(output)) ? 1 : 0
      },
      direction: 'max',
      threshold: 0.5,
      mean: 0.2,
      weight: 2,
    },
  ],
  passRate: 0.8,
  mean: 0.75,
})
