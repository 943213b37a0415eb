import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { gzipSync } from 'node:zlib'
import { messages } from '../messages'
import { type ReplyBody, renderEmbedding, renderReply } from './fake-render'
import {
  type FakeEmbeddingOptions,
  type FakeReply,
  type FakeReplyInput,
  type FakeTextOptions,
  fakeReply,
  replyKind,
  toFakeReply,
} from './fake-reply'
import type { FakeRequest } from './fake-request'
import { flattenHeaders, parseJson, readBody } from './request-reading'

export type { FakeRequest } from './fake-request'

/** Computes the reply to one request. */
export type FakeReplyFunction = (request: FakeRequest) => FakeReplyInput | Promise<FakeReplyInput>

/** Options of {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  /**
   * The reply: a function of the request, a list (request `i` gets entry `i`), or one fixed reply.
   * Default: the text `"ok"`.
   */
  reply?: FakeReplyFunction | FakeReplyInput[] | FakeReplyInput | undefined
  /** Wait this long before answering every request. Default `0`. */
  latencyMs?: number | undefined
}

/** A running fake OpenAI-compatible server. */
export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** `http://127.0.0.1:<port>/v1`: pass it as `baseURL` to an OpenAI client. */
  baseURL: string
  port: number
  /** Every request received so far, in order of arrival. */
  requests: FakeRequest[]
  /** Replace the reply for the requests that follow. */
  setReply(reply: FakeOpenAIOptions['reply']): void
  /** Empty the request log (request indexes start again at 0). */
  clearRequests(): void
  /** Stop the server; open and hanging connections are cut. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/**
 * Start a real HTTP server on 127.0.0.1 (a random port) that speaks the OpenAI Chat Completions
 * protocol, plain and streamed (and the Responses, Embeddings and legacy Completions endpoints,
 * and Ollama's `/api/chat` with its NDJSON stream), answering from a script. Use it to test agents and judges without
 * a network: point any OpenAI-compatible client at `server.baseURL`.
 *
 * @example
 * const server = await startFakeOpenAI({ reply: (req) => `You said: ${req.body.messages.at(-1).content}` })
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' })
 * // ...
 * await server.close()
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let reply = toReplyFunction(options.reply)
  const latencyMs = options.latencyMs ?? 0
  const requests: FakeRequest[] = []
  let index = 0

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        send(
          res,
          fakeReply.status(500, { message: `Fake server error: ${(error as Error).message}` }),
        )
      } else {
        res.destroy()
      }
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bodyText = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const body = parseJson(bodyText)
    const request: FakeRequest = {
      index: index++,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      bodyText,
      body,
      stream: asksForStream(url.pathname, body),
    }
    requests.push(request)
    if (latencyMs > 0) await sleep(latencyMs)
    let built = toFakeReply(await reply(request))
    while (replyKind(built) === 'delay') {
      const { ms, then } = built as Extract<FakeReply, { ms: number }>
      await sleep(ms)
      built = toFakeReply(then)
    }
    if (res.destroyed) return
    await respond(res, request, built)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  const close = async (): Promise<void> => {
    if (!server.listening) return
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closed
  }

  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    setReply(next) {
      reply = toReplyFunction(next)
    },
    clearRequests() {
      requests.length = 0
      index = 0
    },
    close,
    [Symbol.asyncDispose]: close,
  }
}

function toReplyFunction(reply: FakeOpenAIOptions['reply']): FakeReplyFunction {
  if (reply === undefined) return () => 'ok'
  if (typeof reply === 'function') return reply
  if (Array.isArray(reply)) {
    const script = reply as FakeReplyInput[]
    return (request) =>
      request.index < script.length
        ? (script[request.index] as FakeReplyInput)
        : fakeReply.status(500, {
            message: messages.fakeScriptExhausted(script.length, request.index),
            headers: { 'x-should-retry': 'false' },
          })
  }
  return () => reply
}

async function respond(res: ServerResponse, request: FakeRequest, reply: FakeReply): Promise<void> {
  const kind = replyKind(reply)
  if (kind === 'drop') {
    res.socket?.destroy()
    return
  }
  if (kind === 'hang') return
  if (kind === 'raw') {
    send(res, reply)
    return
  }
  let rendered: ReplyBody
  let options: FakeTextOptions = {}
  if (kind === 'embedding') {
    rendered = renderEmbedding(request, (reply as { options: FakeEmbeddingOptions }).options)
  } else {
    const text = reply as Extract<FakeReply, { content: string }>
    options = text.options
    rendered = renderReply(request, text.content, options)
  }
  if (rendered.kind === 'unsupported') {
    const message =
      kind === 'embedding'
        ? messages.fakeEmbeddingElsewhere(request.path)
        : messages.fakeUnsupportedPath(request.path)
    send(res, fakeReply.status(404, { message }))
    return
  }
  if (rendered.kind === 'json') {
    if (options.chunkDelayMs || options.dropAfterChunks !== undefined) {
      await trickle(res, JSON.stringify(rendered.body), options)
      return
    }
    send(res, fakeReply.raw({ status: 200, body: rendered.body, gzip: options.gzip ?? false }))
    return
  }
  await stream(res, rendered, options)
}

async function stream(
  res: ServerResponse,
  rendered: Extract<ReplyBody, { kind: 'sse' | 'ndjson' }>,
  options: FakeTextOptions,
) {
  res.writeHead(200, {
    'content-type': rendered.kind === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  let sent = 0
  for (const event of rendered.events) {
    if (options.dropAfterChunks !== undefined && sent >= options.dropAfterChunks) {
      res.socket?.destroy()
      return
    }
    // Left open: close() cuts it.
    if (options.stallAfterChunks !== undefined && sent >= options.stallAfterChunks) return
    if (options.chunkDelayMs) await sleep(options.chunkDelayMs)
    if (res.destroyed) return
    // Wait for the chunk to reach the socket, so a later drop cuts the stream after it.
    await new Promise<void>((resolve) => res.write(event, () => resolve()))
    sent++
  }
  res.end()
}

const PIECE_BYTES = 64

/** A plain body sent in pieces after the headers: slow, or cut before its end. */
async function trickle(res: ServerResponse, body: string, options: FakeTextOptions) {
  const payload = Buffer.from(body)
  // The full length is announced, so a cut body is an error for the client, not a short reply.
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(payload.length),
  })
  let sent = 0
  for (let start = 0; start < payload.length; start += PIECE_BYTES) {
    if (options.dropAfterChunks !== undefined && sent >= options.dropAfterChunks) {
      res.socket?.destroy()
      return
    }
    if (options.chunkDelayMs) await sleep(options.chunkDelayMs)
    if (res.destroyed) return
    const piece = payload.subarray(start, start + PIECE_BYTES)
    await new Promise<void>((resolve) => res.write(piece, () => resolve()))
    sent++
  }
  res.end()
}

function send(res: ServerResponse, reply: FakeReply): void {
  const { status, headers, body, gzip } = reply as Extract<FakeReply, { status: number }>
  let payload: Buffer = Buffer.from(body)
  const out: Record<string, string> = { ...headers }
  if (gzip) {
    payload = gzipSync(payload)
    out['content-encoding'] = 'gzip'
  }
  out['content-length'] = String(payload.length)
  res.writeHead(status, out)
  res.end(payload)
}

function asksForStream(path: string, body: any): boolean {
  const stream = typeof body === 'object' && body !== null ? body.stream : undefined
  return path.endsWith('/api/chat') ? stream !== false : stream === true
}
