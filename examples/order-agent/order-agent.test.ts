import { expect, test } from 'vitest'
import { orderAgent } from './order-agent'

// A reference trajectory: a run you trust, kept as OpenAI chat messages (any framework's messages
// or result would do, or a list of { name, args } calls).
const goodRun = [
  { role: 'user', content: 'When will my order LP-1042 ship?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'lookup_order', arguments: '{"orderId":"LP-1042"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"status":"printed","ships":"Thursday"}' },
  { role: 'assistant', content: 'Your order LP-1042 ships on Thursday.' },
]

test('looks the order up before it answers', async () => {
  const result = await orderAgent('When will my order LP-1042 ship?')
  // No judge: the tool calls of every step, read from the AI SDK result.
  expect(result).toHaveCalledTool('lookup_order', { orderId: 'LP-1042' })
  expect(result).toHaveToolCalls([{ name: 'lookup_order', args: { orderId: 'LP-1042' } }], {
    args: 'exact',
  })
  // Strict: the good run's calls, in its order, as many.
  expect(result).toMatchTrajectory(goodRun, { mode: 'strict', args: 'exact' })
  // No call beyond these two, though it never notified the customer.
  expect(result).toMatchTrajectory(['lookup_order', 'notify_customer'], { mode: 'subset' })
  expect(result).not.toMatchTrajectory(['lookup_order', 'notify_customer'], { mode: 'superset' })
  expect(result.text).toContain('Thursday')
})
