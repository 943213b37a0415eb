// The reference model's rules for the failing example: a reply that apologises but never offers
// the human agent the customer asked for.
import { agentRule, type ExampleRules, whenOutputMatches } from '../reference-model/rules'
import { SUPPORT_SYSTEM_PROMPT } from '../support-agent/support-agent'

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'support agent: asks for a person',
      system: SUPPORT_SYSTEM_PROMPT,
      user: /talk to a person/,
      reply:
        "I'm sorry it has taken so long to get an answer. I've checked your account: the charge is your annual Lumen Plus renewal from March 3. You can see it under Settings, then Billing.",
    }),
  ],
  criteria: [
    whenOutputMatches(
      'Apologises for the slow answers',
      /sorry|apologi[sz]e/i,
      'The reply does not apologise.',
    ),
    whenOutputMatches(
      'Offers to connect the customer with a human agent',
      /human agent|connect you with|a person/i,
      'The customer asked for a person; the reply explains the charge but never offers one.',
    ),
    whenOutputMatches(
      'Says when a human agent is available',
      /weekdays|between \d|(mon|tues|wednes|thurs|fri)day/i,
      'No hours are given for the human agents.',
    ),
  ],
}

export default rules
