// A support desk on the real OpenAI Agents SDK, for the tests of its results: a triage agent that
// hands off to billing, which looks a ticket up and asks a policy agent (an agent used as a tool).
// The model is a fake Responses API on loopback that plays each agent's part from its
// instructions and what the conversation already holds.
import { Agent, setDefaultOpenAIClient, setTracingDisabled, tool } from '@openai/agents'
import OpenAI from 'openai'
import { z } from 'zod'
import { type FakeReplyInput, type FakeRequest, fakeReply } from '../../src/testing'

/** The final reply of the billing agent. */
export const FINAL_REPLY = 'Ticket T1 is open; refunds take 5 days.'

/** The model's part for each agent: Triage hands off, Billing calls two tools, Policy answers. */
export function deskModel(request: FakeRequest): FakeReplyInput {
  const body = request.body
  const input = JSON.stringify(body.input)
  if (body.instructions === 'Route the customer.') {
    return fakeReply.text('', {
      toolCalls: [{ id: 'call_handoff', name: 'transfer_to_Billing', arguments: '{}' }],
    })
  }
  if (body.instructions === 'Answer policy questions.') return 'Refunds take 5 days.'
  if (!input.includes('"call_id":"call_lookup"')) {
    return fakeReply.text('', {
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_ticket', arguments: '{"id":"T1"}' },
        {
          id: 'call_policy',
          name: 'ask_policy',
          arguments: '{"input":"How long do refunds take?"}',
        },
      ],
    })
  }
  return FINAL_REPLY
}

/** The agents, their model client pointed at `baseURL`. */
export function supportDesk(
  baseURL: string,
  options: { approveLookups?: boolean } = {},
): {
  triage: Agent<unknown, 'text'>
  billing: Agent<unknown, 'text'>
  policy: Agent<unknown, 'text'>
} {
  setTracingDisabled(true)
  setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0 }) as never)
  const lookup = tool({
    name: 'lookup_ticket',
    description: 'Look a ticket up by its id.',
    parameters: z.object({ id: z.string() }),
    needsApproval: options.approveLookups ?? false,
    execute: async ({ id }) => `ticket ${id}: open`,
  })
  const policy = new Agent({ name: 'Policy', instructions: 'Answer policy questions.' })
  const billing = new Agent({
    name: 'Billing',
    instructions: 'Help with billing.',
    tools: [
      lookup,
      policy.asTool({ toolName: 'ask_policy', toolDescription: 'Ask the policy agent.' }),
    ],
  })
  const triage = Agent.create({
    name: 'Triage',
    instructions: 'Route the customer.',
    handoffs: [billing],
  })
  return { triage, billing, policy }
}
