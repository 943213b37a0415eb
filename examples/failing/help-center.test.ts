// What a grounding failure and a budget failure look like. Not part of `npm run examples`: run
// with `npm run examples:failing` (it fails on purpose, and exits with code 1).
import { modelCalls } from 'rubricate'
import { expect, test } from 'vitest'
import { helpCenterBot } from '../help-center/help-center'

test('the photo-book answer states only what the retrieved articles say', async () => {
  const question = 'When will my photo book arrive?'
  const { answer, context } = await helpCenterBot(question)
  // The answer adds free worldwide shipping, which no article says: the failure names the claim.
  await expect(answer).toBeGroundedIn(context, { input: question })
})

test('a customer with two questions is answered in one model call', async () => {
  await helpCenterBot('When will my photo book arrive?')
  await helpCenterBot('How much is Lumen Plus?')
  // The bot makes one call per question: the failure names call #2, the one that went over.
  await expect(modelCalls({ caller: 'agent' })).toStayWithinBudget({ maxCalls: 1 })
})
