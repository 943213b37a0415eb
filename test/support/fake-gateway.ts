import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A Vercel AI Gateway on loopback, speaking the protocol of `@ai-sdk/gateway` (3.x): `POST
 * <base>/language-model` with the model in `ai-language-model-id` and the call options as the JSON
 * body; a plain call is answered with the result of `doGenerate` (content, finish reason, usage), a
 * stream (`ai-language-model-streaming: true`) with server-sent stream parts. The reply names the
 * model it was asked for, so a test sees which model's recording it got.
 */

/** One request the fake gateway received. */
export interface GatewayRequest {
  path: string
  model: string | undefined
  streaming: boolean
  body: unknown
}

/** A running fake gateway. */
export interface FakeGateway {
  /** The base URL for `createGateway({ baseURL })`: `http://127.0.0.1:<port>/v3/ai`. */
  baseURL: string
  requests: GatewayRequest[]
  close(): Promise<void>
}

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 4, text: 4, reasoning: undefined },
}

/** Start a fake gateway whose model answers `reply(model)`. */
export async function startFakeGateway(
  reply: (model: string) => string = (model) => `Hello from ${model}.`,
): Promise<FakeGateway> {
  const requests: GatewayRequest[] = []
  const server = createServer(async (request, response) => {
    let text = ''
    for await (const chunk of request) text += chunk
    const model = request.headers['ai-language-model-id']
    const streaming = request.headers['ai-language-model-streaming'] === 'true'
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    requests.push({
      path,
      model: typeof model === 'string' ? model : undefined,
      streaming,
      body: JSON.parse(text || 'null'),
    })
    if (
      request.method !== 'POST' ||
      path !== '/v3/ai/language-model' ||
      typeof model !== 'string'
    ) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `No route ${path}`, type: 'not_found' } }))
      return
    }
    const answer = reply(model)
    const finishReason = { unified: 'stop', raw: 'stop' }
    if (!streaming) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          content: [{ type: 'text', text: answer }],
          finishReason,
          usage,
          warnings: [],
        }),
      )
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    const parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      ...answer.split(/(?<= )/).map((delta) => ({ type: 'text-delta', id: 't1', delta })),
      { type: 'text-end', id: 't1' },
      { type: 'finish', finishReason, usage },
    ]
    for (const part of parts) response.write(`data: ${JSON.stringify(part)}\n\n`)
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v3/ai`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
