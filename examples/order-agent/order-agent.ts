// An AI SDK agent with tools, on the AI SDK's default OpenAI model, which speaks the Responses API
// (POST /v1/responses, tool calls as `function_call` items). It looks the order up, then answers:
// two steps, two model calls, both recorded and replayed by rubricate through msw.
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { AGENT_MODEL } from '../openai-client'

/** The order agent's instructions. Its rules in the reference model recognise it by them. */
export const ORDER_SYSTEM_PROMPT = `You are the order desk of Lumen, a photo printing service.
Look every order up with lookup_order before you say anything about it. Answer in one or two sentences.`

const provider = createOpenAI({
  // Unset: https://api.openai.com/v1. `npm run examples:record` points it at the reference model.
  ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
  // Replayed calls never leave the machine, so a replay needs no key; the provider insists on one.
  apiKey: process.env.OPENAI_API_KEY ?? 'replay-needs-no-key',
})

// The shop's order book: what the tool answers.
const ORDERS: Record<string, { status: string; ships: string }> = {
  'LP-1042': { status: 'printed', ships: 'Thursday' },
}

const lookupOrder = tool({
  description: 'Look an order up by its id: its status and when it ships.',
  inputSchema: jsonSchema<{ orderId: string }>({
    type: 'object',
    properties: { orderId: { type: 'string', description: 'The order id, e.g. LP-1042' } },
    required: ['orderId'],
    additionalProperties: false,
  }),
  execute: async ({ orderId }) => ORDERS[orderId] ?? { status: 'unknown' },
})

/** Answer a question about an order; the result holds every step and its tool calls. */
export function orderAgent(question: string) {
  return generateText({
    model: provider(AGENT_MODEL),
    system: ORDER_SYSTEM_PROMPT,
    prompt: question,
    tools: { lookup_order: lookupOrder },
    stopWhen: stepCountIs(3),
  })
}
