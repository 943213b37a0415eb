// The reference model's rules for the support agent example: what the agent answers, and how the
// judge decides each criterion of its rubrics.
import { agentRule, type ExampleRules, whenOutputMatches } from '../reference-model/rules'
import { SUPPORT_SYSTEM_PROMPT } from './support-agent'

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'support agent: double charge',
      system: SUPPORT_SYSTEM_PROMPT,
      user: /charged twice/,
      reply:
        "I'm sorry you were charged twice for Lumen Plus this month. I've refunded the duplicate charge to the card you paid with, so you don't need to do anything. The refund usually shows up within 5 to 7 business days.",
    }),
    agentRule({
      name: 'support agent: damaged order',
      system: SUPPORT_SYSTEM_PROMPT,
      user: /torn cover/,
      reply:
        "I'm so sorry your photo book arrived with a torn cover. We'll print and send you a replacement free of charge; there is nothing to return. You'll get an email as soon as it ships.",
    }),
  ],
  criteria: [
    whenOutputMatches(
      'Acknowledges the double charge',
      /charged twice|duplicate charge|double charge/i,
      'The reply never mentions that the customer was charged twice.',
    ),
    whenOutputMatches(
      'Explains how the refund will be processed',
      /refunded .* to the (card|payment method)|refund .* to your (card|payment method)/i,
      'The reply does not say how or where the money will be returned.',
    ),
    whenOutputMatches(
      'Gives a timeframe for the refund',
      /within \d+ (to \d+ )?(business )?days/i,
      'No timeframe is given for the refund.',
    ),
    whenOutputMatches(
      'Apologises for the damaged order',
      /sorry|apologi[sz]e/i,
      'The reply does not apologise.',
    ),
    whenOutputMatches(
      'Offers a free replacement',
      /replacement free of charge|free replacement/i,
      'The reply offers no free replacement.',
    ),
    whenOutputMatches(
      'Says when the replacement will arrive',
      /arrive (in|within|by) |within \d+ (business )?days/i,
      'The reply says when the replacement ships, not when it will arrive.',
    ),
  ],
}

export default rules
