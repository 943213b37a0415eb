// The reference model as a Vercel AI Gateway (`@ai-sdk/gateway` 3.x): `POST <base>/language-model`
// with the model in the `ai-language-model-id` header and the AI SDK's call options as the body. A
// plain call is answered with what `doGenerate` returns (content, finish reason, usage); the
// examples make no streamed gateway call, so a stream is answered with an error saying so.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a gateway model does next: a tool call or a text, or `undefined` when no rule answers. */
export type GatewayMove =
  | { call: { id: string; name: string; args: Record<string, unknown> } }
  | { text: string }
  | undefined

/** A running reference gateway. */
export interface ReferenceGateway {
  /** `http://127.0.0.1:<port>/v3/ai`: the `baseURL` of `createGateway`. */
  baseURL: string
  close(): Promise<void>
}

/** Start the reference gateway on 127.0.0.1 (a random port). */
export async function startReferenceGateway(
  move: (body: unknown) => GatewayMove,
): Promise<ReferenceGateway> {
  const server = createServer(async (request, response) => {
    let text = ''
    for await (const chunk of request) text += chunk
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    const fail = (status: number, message: string) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }))
    }
    if (request.method !== 'POST' || !path.endsWith('/language-model')) {
      fail(404, `The reference gateway serves POST <base>/language-model, not ${path}.`)
      return
    }
    if (request.headers['ai-language-model-streaming'] === 'true') {
      fail(400, 'The reference gateway answers no streamed call: use generateText.')
      return
    }
    const next = move(JSON.parse(text || 'null'))
    if (next === undefined) {
      fail(
        400,
        'The reference gateway has no rule for this request (examples/<case>/<case>.rules.ts).',
      )
      return
    }
    const content =
      'call' in next
        ? [
            {
              type: 'tool-call',
              toolCallId: next.call.id,
              toolName: next.call.name,
              input: JSON.stringify(next.call.args),
            },
          ]
        : [{ type: 'text', text: next.text }]
    const finishReason =
      'call' in next
        ? { unified: 'tool-calls', raw: 'tool_calls' }
        : { unified: 'stop', raw: 'stop' }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        content,
        finishReason,
        usage: {
          inputTokens: { total: Math.ceil(text.length / 4), noCache: Math.ceil(text.length / 4) },
          outputTokens: { total: 12, text: 12 },
        },
        warnings: [],
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v3/ai`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
