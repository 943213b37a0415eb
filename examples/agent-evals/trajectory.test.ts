import { createToolCallScorer, createTrajectoryRubric } from 'rubricate'
import { describeEval } from 'rubricate/evals'
import { orderAgent } from '../order-agent/order-agent'

// The order agent's path, scored. It looks the order up but never notifies the customer: the
// tool-call scorer gives partial credit (1 of 2 expected calls, 0.5), enough for its threshold of
// 0.5. Against a reference trajectory in superset mode (every reference call made, others
// allowed) it earns the same half. The trajectory rubric's judge reads the calls, their results
// and the answer as a transcript.
describeEval('order desk trajectory', {
  data: [{ name: 'LP-1042 ships on Thursday', input: 'Has my order LP-1042 shipped yet?' }],
  task: (row) => orderAgent(String(row.input)),
  scorers: [
    {
      scorer: createToolCallScorer({
        id: 'order-path',
        expected: [
          { name: 'lookup_order', args: { orderId: 'LP-1042' } },
          { name: 'notify_customer' },
        ],
        order: 'strict',
        allowExtras: false,
      }),
      threshold: 0.5,
    },
    {
      scorer: createToolCallScorer({
        id: 'reference-path',
        reference: [
          { name: 'lookup_order', args: { orderId: 'LP-1042' } },
          { name: 'notify_customer', args: { orderId: 'LP-1042' } },
        ],
        mode: 'superset',
        argsByTool: { notify_customer: 'ignore' },
      }),
      threshold: 0.5,
    },
    createTrajectoryRubric({
      criteria: `
        - Looks the order up before it answers
        - Quotes the shipping day the lookup returned
      `,
    }),
  ],
})
