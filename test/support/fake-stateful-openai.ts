// A loopback server speaking the stateful parts of OpenAI's API that agents use: the Responses API
// with `previous_response_id` and the Conversations API with its items. Each server issues ids of
// its own (`tag`), as a real API issues new ids on every recording; it knows only its own ids, so
// a request that carries an id it did not issue is a 404, as it would be live.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A function call a fake response makes. */
export interface FakeFunctionCall {
  call: string
  arguments: Record<string, unknown>
}

export interface FakeStatefulOpenAI {
  baseURL: string
  /** `METHOD /path` of every request received. */
  requests: string[]
  close(): Promise<void>
}

export interface FakeStatefulOptions {
  /** Marks every id this server issues. */
  tag: string
  /**
   * The answer to a Responses request, from its body and how many responses came before: a text,
   * or a function call (`{ call: name, arguments }`), given a `call_id` this server issues.
   */
  answer?: ((body: Record<string, unknown>, count: number) => string | FakeFunctionCall) | undefined
  /** Milliseconds before each response is answered. Default `0`. */
  delayMs?: number | undefined
}

/** Start the server on 127.0.0.1. */
export async function startFakeStatefulOpenAI(
  options: FakeStatefulOptions,
): Promise<FakeStatefulOpenAI> {
  const requests: string[] = []
  const responses = new Map<string, unknown>()
  const conversations = new Map<string, unknown[]>()
  let count = 0
  const id = (kind: string) => `${kind}_${options.tag}_${String(++count).padStart(4, '0')}`
  const server: Server = createServer((request, reply) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', async () => {
      requests.push(`${request.method} ${request.url}`)
      const send = (status: number, json: unknown) => {
        reply.statusCode = status
        reply.setHeader('content-type', 'application/json')
        reply.end(JSON.stringify(json))
      }
      const notFound = (what: string) =>
        send(404, { error: { message: `No such ${what}`, type: 'invalid_request_error' } })
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      const path = new URL(request.url ?? '/', 'http://x').pathname
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
      if (request.method === 'POST' && path === '/v1/responses') {
        const previous = body.previous_response_id
        if (typeof previous === 'string' && !responses.has(previous)) return notFound('response')
        const responseId = id('resp')
        responses.set(responseId, undefined)
        const said = options.answer?.(body, responses.size) ?? `answer ${responses.size}`
        const item =
          typeof said === 'string'
            ? {
                id: id('msg'),
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: said, annotations: [] }],
              }
            : {
                id: id('fc'),
                type: 'function_call',
                status: 'completed',
                call_id: id('call'),
                name: said.call,
                arguments: JSON.stringify(said.arguments),
              }
        const response = {
          id: responseId,
          object: 'response',
          created_at: 1_700_000_000,
          status: 'completed',
          model: body.model,
          previous_response_id: previous ?? null,
          output: [item],
          usage: {
            input_tokens: 5,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 3,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 8,
          },
        }
        responses.set(responseId, response)
        return send(200, response)
      }
      // One response read back by its id, as the Responses API's `GET /v1/responses/{id}`.
      const read = /^\/v1\/responses\/([^/]+)$/.exec(path)
      if (read && request.method === 'GET') {
        const found = responses.get(read[1] as string)
        return found ? send(200, found) : notFound('response')
      }
      if (request.method === 'POST' && path === '/v1/conversations') {
        const conversationId = id('conv')
        conversations.set(
          conversationId,
          ((body.items as Record<string, unknown>[]) ?? []).map((item) => ({
            id: id('item'),
            ...item,
          })),
        )
        return send(200, { id: conversationId, object: 'conversation', created_at: 1_700_000_000 })
      }
      const conversation = /^\/v1\/conversations\/([^/]+)$/.exec(path)
      if (conversation?.[1] && request.method === 'GET') {
        if (!conversations.has(conversation[1])) return notFound('conversation')
        return send(200, { id: conversation[1], object: 'conversation', created_at: 1_700_000_000 })
      }
      const items = /^\/v1\/conversations\/([^/]+)\/items$/.exec(path)
      if (items?.[1]) {
        const list = conversations.get(items[1])
        if (!list) return notFound('conversation')
        if (request.method === 'POST') {
          const added = ((body.items as Record<string, unknown>[]) ?? []).map((item) => ({
            id: id('item'),
            ...item,
          }))
          list.push(...added)
          return send(200, { object: 'list', data: added, has_more: false })
        }
        return send(200, {
          object: 'list',
          data: list,
          first_id: (list[0] as { id?: string } | undefined)?.id ?? null,
          last_id: (list.at(-1) as { id?: string } | undefined)?.id ?? null,
          has_more: false,
        })
      }
      return notFound('route')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
