// The reference model's rules for the order agent example: the first call asks for the order to
// be looked up (a function_call item on the Responses API); once the tool's output is in the
// conversation, the answer quotes it.
import { fakeReply } from 'rubricate/testing'
import type { ExampleRules } from '../reference-model/rules'
import { ORDER_SYSTEM_PROMPT } from './order-agent'

interface ResponsesItem {
  type?: string
  role?: string
  call_id?: string
  output?: string
}

const rules: ExampleRules = {
  rules: [
    {
      name: 'order agent',
      match: (request) => request.system.startsWith(ORDER_SYSTEM_PROMPT),
      reply: (request) => {
        const input = (request.raw.body?.input ?? []) as ResponsesItem[]
        const output = input.find((item) => item.type === 'function_call_output')?.output
        if (output === undefined) {
          const orderId = /\b[A-Z]{2}-\d+\b/.exec(request.user)?.[0] ?? ''
          return fakeReply.text('', {
            toolCalls: [
              { id: 'call_lookup_1', name: 'lookup_order', arguments: JSON.stringify({ orderId }) },
            ],
          })
        }
        const order = JSON.parse(output) as { status?: string; ships?: string }
        return order.ships
          ? `Your order is ${order.status} and ships on ${order.ships}.`
          : "I couldn't find that order. Could you check its id?"
      },
    },
  ],
}

export default rules
