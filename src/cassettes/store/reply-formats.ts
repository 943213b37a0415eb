import { streamEvents } from './stream-events'

/**
 * What rubricate reads out of the replies of each provider's format, plain and streamed: the text
 * a stream said (the entry's `streamedText`) and the tokens a reply counts (the reply that carries
 * a stream's usage is `usageEvent`, in `stream-events.ts`). Formats: OpenAI Chat Completions,
 * legacy Completions, Responses and Embeddings; Anthropic Messages; Gemini and Vertex
 * `generateContent`; Ollama's `/api/chat`; Bedrock's Converse.
 */

/**
 * The text a streamed reply said: the text deltas of OpenAI chat, legacy completion and
 * Responses events, Anthropic's `text_delta`s, the text parts of Gemini's chunks (thoughts left
 * out), or Ollama's NDJSON lines, joined; `undefined` when the events carry none.
 * @internal
 */
export function streamedText(chunks: readonly { chunk: string }[]): string | undefined {
  let text = ''
  let found = false
  for (const { json } of streamEvents(chunks)) {
    const piece = textPiece(json as any)
    if (piece !== undefined) {
      text += piece
      found = true
    }
  }
  return found ? text : undefined
}

function textPiece(event: any): string | undefined {
  if (event === null || typeof event !== 'object') return undefined
  const choice = event.choices?.[0]
  if (typeof choice?.delta?.content === 'string') return choice.delta.content
  if (typeof choice?.text === 'string') return choice.text
  if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
    return event.delta
  }
  if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') {
    return typeof event.delta.text === 'string' ? event.delta.text : undefined
  }
  const parts = event.candidates?.[0]?.content?.parts
  if (Array.isArray(parts)) {
    const texts = parts.filter((part: any) => typeof part?.text === 'string' && !part.thought)
    return texts.length > 0 ? texts.map((part: any) => part.text).join('') : undefined
  }
  if (typeof event.message?.content === 'string') return event.message.content
  return undefined
}

/**
 * The tokens a reply counts (a stream's: its `usageEvent` first), from its format's usage
 * fields; `undefined` when it has none. Anthropic's input includes cache reads and writes.
 * @internal
 */
export function replyTokens(reply: unknown): number | undefined {
  if (reply === null || typeof reply !== 'object') return undefined
  const json = reply as any
  const usage = json.usage
  if (usage && typeof usage === 'object') {
    if (isCount(usage.total_tokens)) return usage.total_tokens
    if (isCount(usage.totalTokens)) return usage.totalTokens
    const parts = [
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
      usage.prompt_tokens,
      usage.completion_tokens,
    ].filter(isCount)
    if (parts.length > 0) return parts.reduce((sum, n) => sum + n, 0)
  }
  const meta = json.usageMetadata
  if (meta && typeof meta === 'object') {
    if (isCount(meta.totalTokenCount)) return meta.totalTokenCount
    const parts = [meta.promptTokenCount, meta.candidatesTokenCount, meta.thoughtsTokenCount]
    const counted = parts.filter(isCount)
    if (counted.length > 0) return counted.reduce((sum, n) => sum + n, 0)
  }
  if (isCount(json.eval_count) || isCount(json.prompt_eval_count)) {
    return (
      (isCount(json.prompt_eval_count) ? json.prompt_eval_count : 0) +
      (isCount(json.eval_count) ? json.eval_count : 0)
    )
  }
  return undefined
}

/**
 * A reply's tokens in and out, from its format's usage fields (OpenAI's Chat Completions and
 * Responses, Anthropic's, with cache reads and writes counted in, Gemini's, Ollama's); `undefined`
 * when it has none. Read as {@link replyTokens} reads the total.
 * @internal
 */
export function replyUsage(reply: unknown): { input: number; output: number } | undefined {
  if (reply === null || typeof reply !== 'object') return undefined
  const json = reply as any
  const sum = (...values: unknown[]) => values.filter(isCount).reduce((a, b) => a + b, 0)
  const usage = json.usage
  if (usage && typeof usage === 'object') {
    const input = [
      usage.prompt_tokens,
      usage.input_tokens,
      usage.inputTokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
    ]
    const output = [usage.completion_tokens, usage.output_tokens, usage.outputTokens]
    if ([...input, ...output].some(isCount)) return { input: sum(...input), output: sum(...output) }
  }
  const meta = json.usageMetadata
  if (
    meta &&
    typeof meta === 'object' &&
    (isCount(meta.promptTokenCount) || isCount(meta.candidatesTokenCount))
  ) {
    return {
      input: sum(meta.promptTokenCount),
      output: sum(meta.candidatesTokenCount, meta.thoughtsTokenCount),
    }
  }
  if (isCount(json.eval_count) || isCount(json.prompt_eval_count)) {
    return { input: sum(json.prompt_eval_count), output: sum(json.eval_count) }
  }
  return undefined
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}
