import { expect, test } from 'vitest'
import { orderAgent } from './order-agent'

test('looks the order up before it answers', async () => {
  const result = await orderAgent('When will my order LP-1042 ship?')
  // No judge: the tool calls of every step, read from the AI SDK result.
  expect(result).toHaveCalledTool('lookup_order', { orderId: 'LP-1042' })
  expect(result).toHaveToolCalls([{ name: 'lookup_order', args: { orderId: 'LP-1042' } }], {
    args: 'exact',
  })
  expect(result.text).toContain('Thursday')
})
