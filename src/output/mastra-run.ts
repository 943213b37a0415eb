/** A Mastra agent result's messages, as `agent.generate()` returns them. */
interface MastraResultLike {
  text: string
  messages?: unknown[]
  rememberedMessages?: unknown[]
  response?: { dbMessages?: unknown[] }
  scoringData?: { input?: unknown; output?: unknown }
}

/**
 * The `{ input, output }` a `type: 'agent'` scorer gets from a Mastra `agent.generate()` result,
 * as Mastra builds it for its own scorers: the result's `scoringData` when the call asked for it
 * (`returnScorerData: true`), else the messages of the call (input: the messages that are neither
 * the response nor remembered; remembered: `rememberedMessages`; output: `response.dbMessages`). Mastra does not
 * expose the system messages on the result, so they are empty unless `scoringData` has them.
 * `undefined` when `value` is not a Mastra result.
 * @internal
 */
export function mastraAgentRun(value: unknown): { input: unknown; output: unknown } | undefined {
  const result = value as MastraResultLike | null
  if (typeof result !== 'object' || result === null || typeof result.text !== 'string') {
    return undefined
  }
  const scoring = result.scoringData
  if (scoring && Array.isArray(scoring.output)) {
    return { input: scoring.input, output: scoring.output }
  }
  const output = result.response?.dbMessages
  if (!Array.isArray(output) || !Array.isArray(result.messages)) return undefined
  const remembered = Array.isArray(result.rememberedMessages) ? result.rememberedMessages : []
  // `messages` holds the memory's history too: a remembered message is not this call's input.
  const idOf = (message: unknown) => (message as { id?: unknown } | null)?.id
  const notInput = new Set([...output, ...remembered].map(idOf))
  return {
    input: {
      inputMessages: result.messages.filter((message) => !notInput.has(idOf(message))),
      rememberedMessages: remembered,
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output,
  }
}
