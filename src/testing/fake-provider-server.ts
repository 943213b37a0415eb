import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FakeRequest } from './fake-request'
import { flattenHeaders, parseJson, readBody } from './request-reading'

/**
 * What the fake Anthropic and Gemini servers share: a real HTTP server on 127.0.0.1 that logs each
 * request and answers it with a scripted reply rendered in the provider's own wire format.
 */

/** A reply of a fake provider server: text, tool calls, token counts, or an HTTP error. */
export interface FakeProviderReply {
  /** The reply's text. Default `""` when there are tool calls, else `"ok"`. */
  text?: string | undefined
  /** Tool calls the model makes, after its text. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[] | undefined
  /** Tokens reported. Default: the words of the request's text and of the reply. */
  usage?: { input: number; output: number } | undefined
  /** An HTTP error instead of a reply, in the provider's error format. */
  error?: { status: number; message: string } | undefined
}

/** The reply to one request: a text, a {@link FakeProviderReply}, or a function of the request. */
export type FakeProviderReplyInput =
  | string
  | FakeProviderReply
  | ((request: FakeRequest) => string | FakeProviderReply | Promise<string | FakeProviderReply>)

/** A running fake provider server. */
export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`: the base URL to give the provider's client. */
  url: string
  port: number
  /** Every request received so far, in order of arrival. */
  requests: FakeRequest[]
  /** Replace the reply for the requests that follow. */
  setReply(reply: FakeProviderReplyInput): void
  /** Stop the server; open connections are cut. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** A reply with its defaults filled in, as a protocol renders it. @internal */
export interface RenderedReply {
  text: string
  usage: { input: number; output: number }
  toolCalls?: { name: string; arguments: Record<string, unknown> }[] | undefined
}

/** How one provider renders a reply. @internal */
export interface ProviderProtocol {
  /** Whether the request asks for a stream. */
  streams(request: Omit<FakeRequest, 'stream'>): boolean
  /** Whether the path is one the provider serves. */
  serves(request: FakeRequest): boolean
  /** The reply as a JSON body. */
  json(request: FakeRequest, reply: RenderedReply): unknown
  /** The reply as the provider's server-sent events, each a complete event with its blank line. */
  events(request: FakeRequest, reply: RenderedReply): string[]
  /** An error body. */
  error(status: number, message: string): unknown
}

/** Start a fake server speaking `protocol`. @internal */
export async function startFakeProvider(
  protocol: ProviderProtocol,
  initial: FakeProviderReplyInput = 'ok',
): Promise<FakeProviderServer> {
  let reply = initial
  const requests: FakeRequest[] = []
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy()
      else sendJson(res, 500, protocol.error(500, `Fake server error: ${(error as Error).message}`))
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bodyText = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const logged = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      bodyText,
      body: parseJson(bodyText),
    }
    const request: FakeRequest = { ...logged, stream: protocol.streams(logged) }
    requests.push(request)
    if (!protocol.serves(request)) {
      sendJson(
        res,
        404,
        protocol.error(404, `The fake server does not serve ${request.method} ${request.path}.`),
      )
      return
    }
    const given = typeof reply === 'function' ? await reply(request) : reply
    const built: FakeProviderReply = typeof given === 'string' ? { text: given } : given
    if (built.error) {
      sendJson(res, built.error.status, protocol.error(built.error.status, built.error.message))
      return
    }
    const text = built.text ?? (built.toolCalls?.length ? '' : 'ok')
    const full: RenderedReply = {
      text,
      usage: built.usage ?? wordUsage(request, text),
      toolCalls: built.toolCalls,
    }
    if (!request.stream) {
      sendJson(res, 200, protocol.json(request, full))
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    for (const event of protocol.events(request, full)) {
      if (res.destroyed) return
      await new Promise<void>((resolve) => res.write(event, () => resolve()))
    }
    res.end()
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const close = async (): Promise<void> => {
    if (!server.listening) return
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closed
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setReply(next) {
      reply = next
    },
    close,
    [Symbol.asyncDispose]: close,
  }
}

/** Split a text into a few stream deltas, at word boundaries. @internal */
export function textPieces(text: string): string[] {
  const pieces = text.match(/\S+\s*|\s+/g) ?? []
  return pieces.length > 0 ? pieces : []
}

// Deterministic counts: one token per word of every string in the request body, and of the reply.
function wordUsage(request: FakeRequest, text: string): { input: number; output: number } {
  return { input: countWords(request.bodyText), output: Math.max(1, countWords(text)) }
}

function countWords(text: string): number {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).length
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = Buffer.from(JSON.stringify(body))
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(payload.length),
  })
  res.end(payload)
}
