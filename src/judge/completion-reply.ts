import { show } from '../messages'
import { contentText } from '../output/message-text'
import type { JudgeReply, TokenUsage } from '../records/records'
import { isWholeReplay } from './cassette-bridge'

/**
 * The judge's reply in what an OpenAI-compatible endpoint answered, or `undefined` when the body
 * is not a chat completion at all (an HTML page, an empty body, another API's JSON). The text is
 * the first choice's content (a string, or the text of its parts); no choice is an empty reply.
 * A message with a refusal is a refusal, whatever its content holds (a model may refuse and still
 * write verdict JSON): its text is the refusal, so the refusing judge's words reach the error, and
 * `refusal` is set, so that nothing in it is read as a verdict.
 * @internal
 */
export function completionReply(completion: unknown): JudgeReply | undefined {
  if (typeof completion !== 'object' || completion === null) return undefined
  const { choices, model, usage } = completion as {
    choices?: unknown
    model?: unknown
    usage?: unknown
  }
  if (!Array.isArray(choices)) return undefined
  const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | undefined)
    ?.message
  const refusal = refusalOf(message)
  const reply: JudgeReply =
    refusal !== undefined
      ? { text: refusal, refusal }
      : // Some OpenAI-compatible servers send the content as a list of text parts.
        { text: contentText(message?.content) ?? '' }
  if (typeof model === 'string') reply.model = model
  const tokens = tokenUsage(usage)
  if (tokens) reply.usage = tokens
  return reply
}

/** The message's refusal: its `refusal` field, else the text of its `refusal` content parts. */
function refusalOf(
  message: { content?: unknown; refusal?: unknown } | undefined,
): string | undefined {
  const parts = Array.isArray(message?.content) ? (message.content as unknown[]) : []
  const texts = [message?.refusal]
  for (const part of parts) {
    if ((part as { type?: unknown } | null)?.type === 'refusal') {
      texts.push((part as { refusal?: unknown }).refusal)
    }
  }
  const refusal = texts
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .join('\n')
  return refusal === '' ? undefined : refusal
}

function tokenUsage(usage: unknown): TokenUsage | undefined {
  const {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: total,
  } = (usage ?? {}) as Record<string, unknown>
  if (typeof input !== 'number' || typeof output !== 'number') return undefined
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: typeof total === 'number' ? total : input + output,
  }
}

/**
 * A successful reply with its body read to the end. A connection that breaks mid-body then fails
 * inside `fetch`, where the SDK counts it as a connection error and retries it (bounded), instead
 * of after `fetch`, where nothing retries it. Judge replies are small, non-streamed JSON. A
 * replayed reply is passed on as it is: its body is already in memory, so a second `Response`
 * would only copy it.
 * @internal
 */
export async function wholeBody(response: Response): Promise<Response> {
  if (!response.ok || response.body === null || isWholeReplay(response)) return response
  const body = await response.arrayBuffer()
  const headers = new Headers(response.headers)
  // The bytes are already decoded, so the length is theirs, not that of the encoded body.
  headers.delete('content-encoding')
  headers.set('content-length', String(body.byteLength))
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** How a body that is not a chat completion is named in the error. @internal */
export function bodyPreview(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'an empty body'
  return `the body ${show(body)}`
}
