import { AGENT_MODEL, openai } from '../openai-client'

/** The coding agent's instructions. Its rules in the reference model recognise it by them. */
export const CODING_SYSTEM_PROMPT = `You are a senior JavaScript engineer. Answer with one fenced javascript code block that
defines the requested function as a plain function declaration, with no imports and no exports.`

/** Ask the coding agent for a function; resolves to the code of the block it answers with. */
export async function codingAgent(task: string): Promise<string> {
  const completion = await openai.chat.completions.create({
    model: AGENT_MODEL,
    messages: [
      { role: 'system', content: CODING_SYSTEM_PROMPT },
      { role: 'user', content: task },
    ],
  })
  const answer = completion.choices[0]?.message.content ?? ''
  return /```(?:javascript|js)?\n([\s\S]*?)```/.exec(answer)?.[1]?.trim() ?? answer
}
