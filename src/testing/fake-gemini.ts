import {
  type FakeProviderReplyInput,
  type FakeProviderServer,
  type ProviderProtocol,
  startFakeProvider,
  textPieces,
} from './fake-provider-server'

/** Options of {@link startFakeGemini}. */
export interface FakeGeminiOptions {
  /** The reply: a text, a `{ text, toolCalls, usage, error }` object, or a function of the request. Default `"ok"`. */
  reply?: FakeProviderReplyInput | undefined
}

/**
 * Start a real HTTP server on 127.0.0.1 (a random port) that speaks the Gemini API:
 * `POST /v1beta/models/<model>:generateContent`, and `:streamGenerateContent?alt=sse` (one
 * `GenerateContentResponse` per server-sent event, the last with `finishReason`), with text and
 * `functionCall` parts, `usageMetadata`, and errors in Google's format. Point `@google/genai`
 * (`httpOptions: { baseUrl: server.url }`) or `@ai-sdk/google` (`baseURL: `${url}/v1beta``) at
 * it to test a Gemini agent without a network.
 *
 * @example
 * const server = await startFakeGemini({ reply: 'Paris.' })
 * const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url } })
 * // ...
 * await server.close()
 */
export function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeProviderServer> {
  return startFakeProvider(geminiProtocol, options.reply)
}

const CALL = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/

const geminiProtocol: ProviderProtocol = {
  streams: (request) => request.path.endsWith(':streamGenerateContent'),
  serves: (request) => request.method === 'POST' && CALL.test(request.path),
  json: (request, reply) => chunk(request, reply, partsOf(reply.text, reply), true),
  events(request, reply) {
    const pieces = textPieces(reply.text)
    const chunks = pieces.map((piece, i) =>
      chunk(request, reply, [{ text: piece }], i === pieces.length - 1 && !reply.toolCalls?.length),
    )
    if (reply.toolCalls?.length) chunks.push(chunk(request, reply, partsOf('', reply), true))
    // Google ends each event with CRLF pairs.
    return chunks.map((body) => `data: ${JSON.stringify(body)}\r\n\r\n`)
  },
  error: (status, message) => ({
    error: {
      code: status,
      message,
      status: status === 404 ? 'NOT_FOUND' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT',
    },
  }),
}

function partsOf(
  text: string,
  reply: { toolCalls?: { name: string; arguments: Record<string, unknown> }[] | undefined },
): object[] {
  return [
    ...(text ? [{ text }] : []),
    ...(reply.toolCalls ?? []).map((call) => ({
      functionCall: { name: call.name, args: call.arguments },
    })),
  ]
}

function chunk(
  request: { index: number; path: string },
  reply: { usage: { input: number; output: number } },
  parts: object[],
  last: boolean,
): object {
  const model = CALL.exec(request.path)?.[1] ?? 'gemini-fake'
  return {
    candidates: [
      { content: { parts, role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
    ],
    usageMetadata: {
      promptTokenCount: reply.usage.input,
      ...(last ? { candidatesTokenCount: reply.usage.output } : {}),
      totalTokenCount: reply.usage.input + (last ? reply.usage.output : 0),
    },
    modelVersion: model,
    responseId: `fake-${request.index}`,
  }
}
