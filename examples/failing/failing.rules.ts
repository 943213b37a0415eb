// The reference model's rules for the failing example: a reply that apologises and refunds the
// charge, but offers no discount code (the agent's instructions mention none).
import { agentRule, type ExampleRules, whenOutputMatches } from '../reference-model/rules'
import { SUPPORT_SYSTEM_PROMPT } from '../support-agent/support-agent'

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'support agent: three unanswered emails',
      system: SUPPORT_SYSTEM_PROMPT,
      user: /nobody answers/,
      reply:
        "I'm sorry it took three tries to get an answer. I can see the duplicate charge on your card: I've refunded it to the card you paid with, and it will show up within 5 to 7 business days.",
    }),
  ],
  criteria: [
    whenOutputMatches(
      'Apologises for the slow answers',
      /sorry|apologi[sz]e/i,
      'The reply does not apologise.',
    ),
    whenOutputMatches(
      'Offers a discount code to make up for the trouble',
      /discount|promo(tion)? code|coupon/i,
      'The reply apologises and refunds the charge, but offers no discount code.',
    ),
    whenOutputMatches(
      'Names the person who will follow up',
      /\bI'm [A-Z][a-z]+\b|my name is/,
      'Nobody is named as following up.',
    ),
  ],
}

export default rules
