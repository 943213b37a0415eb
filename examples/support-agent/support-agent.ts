import { AGENT_MODEL, openai } from '../openai-client'

/** The support agent's instructions. Its rules in the reference model recognise it by them. */
export const SUPPORT_SYSTEM_PROMPT = `You are the customer support agent of Lumen, a photo storage service.
Answer in a few short sentences. Be warm and specific; never blame the customer.
Policies: a duplicate charge is refunded to the original payment method within 5 to 7 business days.
An order that arrives damaged is replaced free of charge. A human agent is reachable by chat on weekdays.`

/**
 * Answer one customer message. The reply is streamed, as a chat window shows it; rubricate
 * records the stream and replays it chunk by chunk.
 */
export async function supportAgent(message: string): Promise<string> {
  const stream = await openai.chat.completions.create({
    model: AGENT_MODEL,
    stream: true,
    messages: [
      { role: 'system', content: SUPPORT_SYSTEM_PROMPT },
      { role: 'user', content: message },
    ],
  })
  let reply = ''
  for await (const chunk of stream) reply += chunk.choices[0]?.delta.content ?? ''
  return reply
}
