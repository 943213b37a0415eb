/**
 * A text reply rendered for one endpoint: a JSON body, a stream of SSE events or NDJSON lines, or
 * "not implemented".
 * @internal
 */
import { ollamaChat, ollamaLines } from './fake-ollama'
import type { FakeEmbeddingOptions, FakeTextOptions, FakeUsage } from './fake-reply'
import type { FakeRequest } from './fake-request'

export type ReplyBody =
  | { kind: 'json'; body: unknown }
  | { kind: 'sse'; events: string[] }
  | { kind: 'ndjson'; events: string[] }
  | { kind: 'unsupported' }

// Fixed so that identical requests give byte-identical replies (cassettes stay stable).
const CREATED = 1_764_000_000

/** Render assistant text in the shape the requested endpoint speaks. @internal */
export function renderReply(
  request: FakeRequest,
  content: string,
  options: FakeTextOptions,
): ReplyBody {
  const body = (
    typeof request.body === 'object' && request.body !== null ? request.body : {}
  ) as Record<string, any>
  const model = options.model ?? (typeof body.model === 'string' ? body.model : 'fake-model')
  const usage = options.usage ?? estimateUsage(request.bodyText, content)
  const id = `fake-${request.index}`
  if (request.path.endsWith('/chat/completions')) {
    return request.stream
      ? { kind: 'sse', events: chatChunks(id, model, content, usage, options, body) }
      : { kind: 'json', body: chatCompletion(id, model, content, usage, options) }
  }
  if (request.path.endsWith('/completions')) {
    return request.stream
      ? { kind: 'sse', events: legacyChunks(id, model, content, options) }
      : { kind: 'json', body: legacyCompletion(id, model, content, usage, options) }
  }
  if (request.path.endsWith('/api/chat')) {
    const base = { model, created_at: new Date(CREATED * 1000).toISOString() }
    return request.stream
      ? { kind: 'ndjson', events: ollamaLines(base, split(content, options), usage, options) }
      : { kind: 'json', body: ollamaChat(base, content, usage, options) }
  }
  if (request.path.endsWith('/responses')) {
    const response = responseObject(id, model, content, usage, options)
    return request.stream
      ? { kind: 'sse', events: responseEvents(response, content, options) }
      : { kind: 'json', body: response }
  }
  if (request.path.endsWith('/embeddings'))
    return { kind: 'json', body: embeddings(body, model, usage) }
  return { kind: 'unsupported' }
}

function estimateUsage(requestText: string, content: string): FakeUsage {
  const prompt = Math.max(1, Math.ceil(requestText.length / 4))
  const completion = Math.max(1, Math.ceil(content.length / 4))
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

function usageFields(usage: FakeUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  }
}

function toolCalls(options: FakeTextOptions) {
  return options.toolCalls?.map((call, i) => ({
    id: call.id ?? `call_${i}`,
    type: 'function' as const,
    function: { name: call.name, arguments: call.arguments },
  }))
}

function chatCompletion(
  id: string,
  model: string,
  content: string,
  usage: FakeUsage,
  options: FakeTextOptions,
) {
  const calls = toolCalls(options)
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: calls && !content ? null : content,
          refusal: null,
          ...(calls ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: options.finishReason ?? (calls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: usageFields(usage),
  }
}

function legacyCompletion(
  id: string,
  model: string,
  content: string,
  usage: FakeUsage,
  options: FakeTextOptions,
) {
  return {
    id: `cmpl-${id}`,
    object: 'text_completion',
    created: CREATED,
    model,
    choices: [
      { text: content, index: 0, logprobs: null, finish_reason: options.finishReason ?? 'stop' },
    ],
    usage: usageFields(usage),
  }
}

function legacyChunks(id: string, model: string, content: string, options: FakeTextOptions) {
  const base = { id: `cmpl-${id}`, object: 'text_completion', created: CREATED, model }
  const chunk = (text: string, finish: string | null = null) =>
    sse({ ...base, choices: [{ text, index: 0, logprobs: null, finish_reason: finish }] })
  const events = split(content, options).map((piece) => chunk(piece))
  events.push(chunk('', options.finishReason ?? 'stop'), sse('[DONE]'))
  return events
}

function split(content: string, options: FakeTextOptions): string[] {
  if (options.chunks) return options.chunks
  return content.match(/\s*\S+\s*/g) ?? (content ? [content] : [])
}

function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
}

function chatChunks(
  id: string,
  model: string,
  content: string,
  usage: FakeUsage,
  options: FakeTextOptions,
  body: Record<string, any>,
): string[] {
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: CREATED, model }
  const chunk = (delta: object, finish: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
  const events = [chunk({ role: 'assistant', content: '' })]
  for (const piece of split(content, options)) events.push(chunk({ content: piece }))
  toolCalls(options)?.forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, ...call }] }))
  })
  events.push(chunk({}, options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop')))
  if (body.stream_options?.include_usage)
    events.push(sse({ ...base, choices: [], usage: usageFields(usage) }))
  events.push(sse('[DONE]'))
  return events
}

function responseObject(
  id: string,
  model: string,
  content: string,
  usage: FakeUsage,
  options: FakeTextOptions,
) {
  const calls = toolCalls(options) ?? []
  // Tool calls and no text: only the function calls, as the Responses API answers a tool turn.
  const message =
    calls.length > 0 && content === ''
      ? []
      : [
          {
            id: `msg_${id}`,
            type: 'message' as const,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: content, annotations: [] }],
          },
        ]
  const functionCalls = calls.map((call, index) => ({
    id: `fc_${id}_${index}`,
    type: 'function_call' as const,
    status: 'completed',
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }))
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: CREATED,
    status: 'completed',
    model,
    output: [...message, ...functionCalls],
    usage: {
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
    },
  }
}

function responseEvents(
  response: ReturnType<typeof responseObject>,
  content: string,
  options: FakeTextOptions,
): string[] {
  let sequence = 0
  const event = (type: string, data: object) =>
    sse({ type, sequence_number: sequence++, ...data }, type)
  const events = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
  ]
  response.output.forEach((item, outputIndex) => {
    if (item.type === 'message') {
      for (const delta of split(content, options)) {
        events.push(
          event('response.output_text.delta', {
            item_id: item.id,
            output_index: outputIndex,
            content_index: 0,
            delta,
          }),
        )
      }
      events.push(
        event('response.output_text.done', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          text: content,
        }),
      )
      return
    }
    // A function call streams as the API streams it: the item, its arguments, the finished item.
    const at = { item_id: item.id, output_index: outputIndex }
    events.push(
      event('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      }),
      event('response.function_call_arguments.delta', { ...at, delta: item.arguments }),
      event('response.function_call_arguments.done', { ...at, arguments: item.arguments }),
      event('response.output_item.done', { output_index: outputIndex, item }),
    )
  })
  events.push(event('response.completed', { response }))
  return events
}

function embeddings(body: Record<string, any>, model: string, usage: FakeUsage) {
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input]
  return embeddingList(
    body,
    model,
    usage,
    inputs.map((input) => vectorOf(String(input))),
  )
}

/**
 * An embeddings reply of `fakeReply.embedding()`: bag-of-words vectors, or the given ones. Only
 * the embeddings endpoint has vectors to give; anything else is "unsupported".
 * @internal
 */
export function renderEmbedding(request: FakeRequest, options: FakeEmbeddingOptions): ReplyBody {
  if (!request.path.endsWith('/embeddings')) return { kind: 'unsupported' }
  const body = (
    typeof request.body === 'object' && request.body !== null ? request.body : {}
  ) as Record<string, any>
  const model = options.model ?? (typeof body.model === 'string' ? body.model : 'fake-model')
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input]
  const dimensions =
    options.dimensions ?? (Number.isInteger(body.dimensions) ? body.dimensions : 256)
  const vectors = inputs.map((input, index) =>
    options.vectors
      ? [...(options.vectors[index % options.vectors.length] ?? [])]
      : wordVector(String(input), dimensions),
  )
  return {
    kind: 'json',
    body: embeddingList(body, model, estimateUsage(request.bodyText, ''), vectors),
  }
}

function embeddingList(
  body: Record<string, any>,
  model: string,
  usage: FakeUsage,
  vectors: number[][],
) {
  return {
    object: 'list',
    model,
    data: vectors.map((vector, index) => {
      // The openai SDK asks for base64 (little-endian float32) by default and decodes it.
      const embedding =
        body.encoding_format === 'base64'
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector
      return { object: 'embedding', index, embedding }
    }),
    usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens },
  }
}

// A deterministic 8-dimensional vector derived from the text.
function vectorOf(text: string): number[] {
  const vector = new Array<number>(8).fill(0)
  for (let i = 0; i < text.length; i++)
    vector[i % 8] = ((vector[i % 8] ?? 0) + text.charCodeAt(i)) % 997
  return vector.map((v) => v / 997)
}

// Each word adds +1 or -1 (a hash bit) to a slot chosen by its hash; the sum is scaled to length 1,
// so the dot product of two vectors is about the cosine of their word counts. The sign makes two
// words that share a slot cancel out on average instead of always looking alike. A text without
// words gets a fixed vector.
function wordVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  for (const word of words) {
    const hash = fnv1a(word)
    const slot = (hash >>> 1) % dimensions
    vector[slot] = (vector[slot] ?? 0) + (hash & 1 ? 1 : -1)
  }
  // No words, or words that cancelled out: a fixed vector rather than a division by zero.
  if (!vector.some((value) => value !== 0)) vector[0] = 1
  const length = Math.hypot(...vector)
  return vector.map((value) => value / length)
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
