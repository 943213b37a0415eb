// What a failing rubric looks like: the rubric asks for something the agent was never told to do.
// Not part of `npm run examples`: run it on its own with `npm run examples:failing` (it fails on
// purpose, and exits with code 1).
import { expect, test } from 'vitest'
import { supportAgent } from '../support-agent/support-agent'

test('makes up for slow answers with a discount', async () => {
  const message =
    'I have asked three times about the double charge on my card and nobody answers. This is ridiculous.'
  const reply = await supportAgent(message)
  await expect(reply).toSatisfyRubric(
    `
      - Apologises for the slow answers
      - Offers a discount code to make up for the trouble
      - (optional) Names the person who will follow up
    `,
    { input: message },
  )
})
