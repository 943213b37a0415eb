// The reference model's rules for the agent evals examples: the billing assistant's replies, the
// simulated customer's turns, and how the judge decides the criteria of the trajectory and the
// conversation. (The gates example reuses the FAQ agent and its rules in dataset-eval.)

import { FAQ_SYSTEM_PROMPT } from '../dataset-eval/faq-agent'
import type { ExampleRules } from '../reference-model/rules'
import { agentRule } from '../reference-model/rules'
import { BILLING_SYSTEM_PROMPT } from './support-chat'

// A trajectory as the judge is sent it: one JSON object per line (a call, a message, the answer).
function trajectoryLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line)
      return typeof parsed === 'object' && parsed !== null
        ? [parsed as Record<string, unknown>]
        : []
    } catch {
      return []
    }
  })
}

// The gates example asks the FAQ agent its own questions (other words than dataset-eval's), so
// that no two tests record the same request.
const FAQ: Record<string, string> = {
  'What storage comes with the free plan?': 'The free plan comes with 15 GB of storage.',
  'What is the price of Lumen Plus?': 'Lumen Plus is $4.99 a month for 2 TB.',
  'Am I free to cancel Lumen Plus at any moment?':
    'Yes, you can cancel at any time from Settings > Plan.',
  'Is there a discount for students?': 'Yes: students get 50% off Lumen Plus.',
  'I live in Germany: where are my photos kept?':
    'Photos of customers in the EU, Germany included, are stored in Frankfurt.',
  'Is there a phone number for support?':
    "I'm not sure we offer phone support; a human agent answers by chat on weekdays.",
}

const BILLING: [RegExp, string][] = [
  [
    /charged twice/i,
    'Sorry about that! Could you tell me the date and the amount of the two charges?',
  ],
  [/March 3/i, 'Thank you. I have refunded the duplicate $4.99 charge from March 3.'],
  [
    /money|when/i,
    'The refund reaches your card within 5 business days. Sorry again for the trouble.',
  ],
]

// The simulated customer: its next message after the assistant's n-th reply; done after the third.
const CUSTOMER = ['It was $4.99, twice, on March 3.', 'Thanks. When will I see the money back?']

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'FAQ agent (gates example)',
      system: FAQ_SYSTEM_PROMPT,
      user: new RegExp(`^(${Object.keys(FAQ).map(escapeRegExp).join('|')})$`),
      reply: (request) => FAQ[request.user] ?? '',
    }),
    agentRule({
      name: 'billing assistant',
      system: BILLING_SYSTEM_PROMPT,
      reply: (request) =>
        BILLING.find(([pattern]) => pattern.test(request.user))?.[1] ??
        `No reply for "${request.user}" in agent-evals.rules.ts.`,
    }),
    {
      name: 'simulated customer',
      match: (request) => request.schemaName === 'simulated_user_turn',
      reply: (request) => {
        // The conversation so far is one JSON line per message; count the assistant's.
        const replies = request.user.split('"speaker":"assistant"').length - 1
        const message = CUSTOMER[replies - 1]
        return JSON.stringify(message ? { message, done: false } : { message: '', done: true })
      },
    },
  ],
  criteria: [
    {
      criterion: 'Looks the order up before it answers',
      decide: (output) =>
        trajectoryLines(output).find((line) => 'call' in line)?.tool === 'lookup_order' &&
        trajectoryLines(output).some((line) => 'finalAnswer' in line)
          ? {
              satisfied: true,
              reasoning: 'The first call is lookup_order; the answer comes after it.',
            }
          : { satisfied: false, reasoning: 'The answer does not follow a lookup_order call.' },
    },
    {
      criterion: 'Quotes the shipping day the lookup returned',
      decide: (output) => {
        const lines = trajectoryLines(output)
        const results = lines.map((line) => JSON.stringify(line.result ?? null)).join(' ')
        const day = /\\?"ships\\?":\\?"(\w+)/.exec(results)?.[1]
        const answer = lines.find((line) => 'finalAnswer' in line)?.finalAnswer
        return day && typeof answer === 'string' && answer.includes(day)
          ? {
              satisfied: true,
              reasoning: `The lookup returned ${day}, and the answer says ${day}.`,
            }
          : {
              satisfied: false,
              reasoning: 'The answer does not quote the day the lookup returned.',
            }
      },
    },
    {
      criterion: 'Stays polite',
      decide: (output) =>
        /stupid|your fault|calm down/i.test(output)
          ? { satisfied: false, reasoning: 'The reply is rude to the customer.' }
          : { satisfied: true, reasoning: 'The reply is courteous.' },
    },
    {
      criterion: 'Refunds the duplicate charge',
      decide: (output) =>
        /refunded the duplicate/i.test(output)
          ? { satisfied: true, reasoning: 'The assistant says it refunded the duplicate charge.' }
          : { satisfied: false, reasoning: 'No refund of the duplicate charge is confirmed.' },
    },
    {
      criterion: 'Says when the refund arrives',
      decide: (output) =>
        /within \d+ business days/i.test(output)
          ? {
              satisfied: true,
              reasoning: 'The assistant says the refund arrives within 5 business days.',
            }
          : { satisfied: false, reasoning: 'No date for the refund is given.' },
    },
  ],
}

export default rules

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
