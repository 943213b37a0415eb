import {
  type FakeProviderReplyInput,
  type FakeProviderServer,
  type ProviderProtocol,
  startFakeProvider,
  textPieces,
} from './fake-provider-server'

/** Options of {@link startFakeAnthropic}. */
export interface FakeAnthropicOptions {
  /** The reply: a text, a `{ text, toolCalls, usage, error }` object, or a function of the request. Default `"ok"`. */
  reply?: FakeProviderReplyInput | undefined
}

/**
 * Start a real HTTP server on 127.0.0.1 (a random port) that speaks the Anthropic Messages API:
 * `POST /v1/messages`, plain and streamed (`"stream": true`: `message_start`,
 * `content_block_start`, `content_block_delta`, `content_block_stop`, `message_delta`,
 * `message_stop` events), with text and `tool_use` blocks, usage, and errors in Anthropic's
 * format. Point the `@anthropic-ai/sdk` client (or `@ai-sdk/anthropic` at `${url}/v1`) at it to
 * test a Claude agent without a network.
 *
 * @example
 * const server = await startFakeAnthropic({ reply: 'Paris.' })
 * const client = new Anthropic({ baseURL: server.url, apiKey: 'test' })
 * // ...
 * await server.close()
 */
export function startFakeAnthropic(
  options: FakeAnthropicOptions = {},
): Promise<FakeProviderServer> {
  return startFakeProvider(anthropicProtocol, options.reply)
}

const anthropicProtocol: ProviderProtocol = {
  streams: (request) => request.body?.stream === true,
  serves: (request) => request.method === 'POST' && request.path.endsWith('/v1/messages'),
  json(request, reply) {
    return {
      ...message(request, reply.usage.input),
      content: blocks(reply),
      stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
      usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output },
    }
  },
  events(request, reply) {
    const out = [
      event('message_start', {
        type: 'message_start',
        message: {
          ...message(request, reply.usage.input),
          content: [],
          usage: { input_tokens: reply.usage.input, output_tokens: 1 },
        },
      }),
    ]
    let index = 0
    if (reply.text) {
      out.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
        event('ping', { type: 'ping' }),
      )
      for (const piece of textPieces(reply.text)) {
        out.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: piece },
          }),
        )
      }
      out.push(event('content_block_stop', { type: 'content_block_stop', index }))
      index++
    }
    for (const [i, call] of (reply.toolCalls ?? []).entries()) {
      out.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: toolId(request, i), name: call.name, input: {} },
        }),
        event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.arguments) },
        }),
        event('content_block_stop', { type: 'content_block_stop', index }),
      )
      index++
    }
    out.push(
      event('message_delta', {
        type: 'message_delta',
        delta: {
          stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
          stop_sequence: null,
        },
        usage: { output_tokens: reply.usage.output },
      }),
      event('message_stop', { type: 'message_stop' }),
    )
    return out
  },
  error: (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 404 ? 'not_found_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
      message,
    },
  }),
}

function message(request: { index: number; body?: any }, _input: number) {
  return {
    id: `msg_fake_${request.index}`,
    type: 'message',
    role: 'assistant',
    model: typeof request.body?.model === 'string' ? request.body.model : 'claude-fake',
    stop_reason: null,
    stop_sequence: null,
  }
}

function blocks(reply: {
  text: string
  toolCalls?: { name: string; arguments: Record<string, unknown> }[] | undefined
}) {
  return [
    ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
    ...(reply.toolCalls ?? []).map((call, i) => ({
      type: 'tool_use',
      id: `toolu_fake_${i}`,
      name: call.name,
      input: call.arguments,
    })),
  ]
}

function toolId(_request: { index: number }, i: number): string {
  return `toolu_fake_${i}`
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}
