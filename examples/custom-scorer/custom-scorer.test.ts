import { expect, test } from 'vitest'
import { supportAgent } from '../support-agent/support-agent'
import { plainLanguageScorer } from './plain-language-scorer'

test('an upset customer gets a plain-language reply', async () => {
  const message = 'This is the third time my upload failed and I lost my holiday photos. Fix it!'
  const reply = await supportAgent(message)
  // Passes when the score reaches the threshold (default 1).
  await expect(reply).toPassScorer(plainLanguageScorer, { threshold: 0.75, input: message })
})
