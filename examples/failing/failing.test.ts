// What a failing rubric looks like. Not part of `npm run examples`: run it on its own with
// `npm run examples:failing` (it fails on purpose, and exits non-zero).
import { expect, test } from 'vitest'
import { supportAgent } from '../support-agent/support-agent'

test('offers an angry customer a human to talk to', async () => {
  const message =
    'I have asked three times about the charge on my card and nobody answers. I want to talk to a person.'
  const reply = await supportAgent(message)
  await expect(reply).toSatisfyRubric(
    `
      - Apologises for the slow answers
      - Offers to connect the customer with a human agent
      - (optional) Says when a human agent is available
    `,
    { input: message },
  )
})
