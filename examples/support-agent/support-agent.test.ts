import { expect, test } from 'vitest'
import { supportAgent } from './support-agent'

// One criterion per line; "(optional)" marks a criterion that is reported but never fails the test.
const refundRubric = `
  - Acknowledges the double charge
  - Explains how the refund will be processed
  - (optional) Gives a timeframe for the refund
`

test('answers a double-charge refund question', async () => {
  const question =
    'I was charged twice for my Lumen Plus subscription this month. Can I get a refund?'
  const reply = await supportAgent(question)
  await expect(reply).toSatisfyRubric(refundRubric, { input: question })
})

test('offers a free replacement for a damaged order', async () => {
  const question = 'My photo book arrived with a torn cover. What can you do?'
  const reply = await supportAgent(question)
  // A list works too: `required` defaults to true.
  await expect(reply).toSatisfyRubric(
    [
      { description: 'Apologises for the damaged order' },
      { description: 'Offers a free replacement' },
      { description: 'Says when the replacement will arrive', required: false },
    ],
    { input: question },
  )
})
