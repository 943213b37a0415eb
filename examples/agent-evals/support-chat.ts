import type { ConversationMessage } from 'rubricate/evals'
import { AGENT_MODEL, openai } from '../openai-client'

/** The billing assistant's instructions. Its rule in the reference model recognises it by them. */
export const BILLING_SYSTEM_PROMPT = `You are the billing assistant of Lumen, a photo storage service.
Be polite and brief. Refund a duplicate charge once the customer gives its date and amount.`

/** The billing assistant's next reply to a conversation (the user's latest message last). */
export async function billingAssistant(messages: readonly ConversationMessage[]): Promise<string> {
  const completion = await openai.chat.completions.create({
    model: AGENT_MODEL,
    messages: [{ role: 'system', content: BILLING_SYSTEM_PROMPT }, ...messages],
  })
  return completion.choices[0]?.message.content ?? ''
}
