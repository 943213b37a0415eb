import { describeEval } from 'rubricate/evals'
import { billingAssistant } from './support-chat'

// A three-turn conversation with a simulated user: a second model call, recorded in the cassettes
// like the judge's, plays a customer charged twice until the refund is confirmed and dated. Each
// reply is judged on its own (turnCriteria), and the whole conversation against `criteria`.
describeEval('billing assistant with a simulated customer', {
  data: [
    {
      name: 'duplicate charge refunded',
      input: 'I was charged twice this month.',
      goal: 'Get the duplicate charge refunded, and learn when the money arrives.',
    },
  ],
  task: (_row, conversation) => billingAssistant(conversation.messages),
  simulatedUser: {
    instructions:
      'A Lumen Plus subscriber, charged $4.99 twice on March 3. Short, direct messages.',
    maxTurns: 5,
  },
  turnCriteria: '- Stays polite',
  criteria: `
    - Refunds the duplicate charge
    - Says when the refund arrives
  `,
})
