/**
 * Replies a fake OpenAI server can give. Build them with the `fakeReply` helpers; a plain string
 * is an assistant message and a plain object is an assistant message holding that object as JSON.
 */

const KIND: unique symbol = Symbol.for('rubricate.fakeReply') as never

/** Token usage reported by a fake reply, in OpenAI's field names. */
export interface FakeUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens?: number | undefined
}

/** How a text reply is shaped and delivered. */
export interface FakeTextOptions {
  /** Reported usage. Default: about one token per four characters. */
  usage?: FakeUsage | undefined
  /** Model name in the reply. Default: the request's `model`. */
  model?: string | undefined
  /** `finish_reason`. Default `'stop'`. */
  finishReason?: string | undefined
  /** Tool calls to return instead of (or beside) text. */
  toolCalls?: { id?: string | undefined; name: string; arguments: string }[] | undefined
  /** For streamed replies: the content split into these pieces. Default: one piece per word. */
  chunks?: string[] | undefined
  /**
   * Pause before each chunk (a slow stream). Streamed replies pause before each SSE event or NDJSON
   * line; plain replies send their JSON body in 64-byte pieces after the headers (a slow body).
   * Default `0`.
   */
  chunkDelayMs?: number | undefined
  /**
   * Cut the connection after this many chunks: SSE events or NDJSON lines of a streamed reply (a
   * stream that never ends cleanly), 64-byte pieces of a plain reply's body (a body cut short).
   */
  dropAfterChunks?: number | undefined
  /**
   * Stop after this many SSE events or NDJSON lines of a streamed reply and keep the connection
   * open: a stream that never ends (until the server closes).
   */
  stallAfterChunks?: number | undefined
  /** Send the body gzip-compressed with `content-encoding: gzip`. Default `false`. */
  gzip?: boolean | undefined
}

/** How an embeddings reply computes its vectors. */
export interface FakeEmbeddingOptions {
  /**
   * Length of each vector. Default: the request's `dimensions`, else `256`. Ignored with `vectors`.
   */
  dimensions?: number | undefined
  /** The vectors to return, one per input, instead of computed ones. */
  vectors?: readonly (readonly number[])[] | undefined
  /** Model name in the reply. Default: the request's `model`. */
  model?: string | undefined
}

/** A reply, as built by the `fakeReply` helpers. */
export type FakeReply =
  | { [KIND]: 'text'; content: string; options: FakeTextOptions }
  | { [KIND]: 'embedding'; options: FakeEmbeddingOptions }
  | {
      [KIND]: 'raw'
      status: number
      headers: Record<string, string>
      body: string
      gzip: boolean
    }
  | { [KIND]: 'drop' }
  | { [KIND]: 'hang' }
  | { [KIND]: 'delay'; ms: number; then: FakeReplyInput }

/** What a reply function may return: a built reply, a string (assistant text), or an object (assistant JSON). */
export type FakeReplyInput = FakeReply | string | Record<string, unknown> | unknown[]

/** Options of an error reply. */
export interface FakeErrorOptions {
  /** `Retry-After` header, in seconds. */
  retryAfter?: number | undefined
  /** Error message in the OpenAI-shaped body. Default: a message naming the status. */
  message?: string | undefined
  /** Extra headers. */
  headers?: Record<string, string> | undefined
  /** Whole body instead of the OpenAI-shaped error. */
  body?: unknown
}

/** Builders for every reply and fault a fake OpenAI server can produce. */
export const fakeReply = {
  /** An assistant message with this text (streamed when the request asks for a stream). */
  text(content: string, options: FakeTextOptions = {}): FakeReply {
    return { [KIND]: 'text', content, options }
  },
  /** An assistant message whose text is `value` as JSON: what a judge with structured output answers. */
  json(value: unknown, options: FakeTextOptions = {}): FakeReply {
    return { [KIND]: 'text', content: JSON.stringify(value), options }
  },
  /**
   * An embeddings reply whose vectors make similar texts similar: each text is a normalised bag of
   * its words (lower-cased, hashed into `dimensions` slots), so the cosine similarity of two texts
   * grows with the words they share ("The refund arrives in 5 days" and "The refund arrives
   * within 5 days" score about 0.83). Sent as base64 when the request asks for
   * `encoding_format: 'base64'`, as the openai SDK does by default.
   *
   * @example
   * const server = await startFakeOpenAI({ reply: fakeReply.embedding() })
   */
  embedding(options: FakeEmbeddingOptions = {}): FakeReply {
    return { [KIND]: 'embedding', options }
  },
  /** An HTTP error in OpenAI's shape, e.g. `fakeReply.status(429, { retryAfter: 1 })`. */
  status(status: number, options: FakeErrorOptions = {}): FakeReply {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...options.headers,
    }
    if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter)
    const body =
      options.body !== undefined
        ? options.body
        : {
            error: {
              message: options.message ?? `Fake error with status ${status}`,
              type:
                status === 429
                  ? 'rate_limit_error'
                  : status >= 500
                    ? 'server_error'
                    : 'invalid_request_error',
              code: null,
              param: null,
            },
          }
    return {
      [KIND]: 'raw',
      status,
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      gzip: false,
    }
  },
  /** A 200 reply whose body is not valid JSON: the server's own reply is malformed. */
  malformed(body = '{"id": "chatcmpl-broken", "choices": [{'): FakeReply {
    return {
      [KIND]: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
      gzip: false,
    }
  },
  /** Any status, headers and body, sent as given. */
  raw(reply: {
    status?: number
    headers?: Record<string, string>
    body?: unknown
    gzip?: boolean
  }): FakeReply {
    const body =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body)
    return {
      [KIND]: 'raw',
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
      body,
      gzip: reply.gzip ?? false,
    }
  },
  /** Destroy the connection without answering. */
  drop(): FakeReply {
    return { [KIND]: 'drop' }
  },
  /** Never answer: the request stays open until the client gives up or the server closes. */
  hang(): FakeReply {
    return { [KIND]: 'hang' }
  },
  /** Answer `then` after `ms` milliseconds. */
  delay(ms: number, then: FakeReplyInput): FakeReply {
    return { [KIND]: 'delay', ms, then }
  },
}

/** True for replies built with `fakeReply`. @internal */
export function isFakeReply(value: unknown): value is FakeReply {
  return typeof value === 'object' && value !== null && KIND in value
}

/** The kind tag of a built reply. @internal */
export function replyKind(reply: FakeReply): FakeReply[typeof KIND] {
  return reply[KIND]
}

/** Turn what a reply function returned into a built reply. @internal */
export function toFakeReply(input: FakeReplyInput): FakeReply {
  if (isFakeReply(input)) return input
  if (typeof input === 'string') return fakeReply.text(input)
  return fakeReply.json(input)
}
