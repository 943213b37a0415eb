/**
 * The one reader of recorded streams (ARCHITECTURE.md §7.2): server-sent events as the HTML
 * standard parses them (`event:` names, `data:` fields joined by line breaks, comments, CR, LF or
 * CRLF line ends) and NDJSON lines (Ollama's `/api/chat`). Everything that looks into a stream
 * reads it through here: the entry's `streamedText`, the tokens of a stream and the event that
 * carries its usage (`usageEvent`), the scan for a secret spelled across events.
 */

/** One event of a stream: its `event:` name (SSE only) and its data, parsed when it is JSON. @internal */
export interface StreamEvent {
  event: string | undefined
  data: string
  /** The data parsed, when it is a JSON object or array; `undefined` otherwise (`[DONE]`). */
  json: unknown
}

/** The events of a recorded stream, in order. @internal */
export function streamEvents(chunks: readonly { chunk: string }[]): StreamEvent[] {
  const text = chunks.map((chunk) => chunk.chunk).join('')
  return isSse(text) ? sseEvents(text) : ndjsonEvents(text)
}

/**
 * Parse server-sent events: a blank line ends an event; `data` lines are joined with `\n`; a line
 * that starts with `:` is a comment; one space after the colon is dropped. An event with no data
 * is not dispatched, as in a browser; the last event is kept even without its blank line.
 * @internal
 */
export function sseEvents(text: string): StreamEvent[] {
  const events: StreamEvent[] = []
  let name: string | undefined
  let data: string[] | undefined
  const dispatch = () => {
    if (data !== undefined) {
      const joined = data.join('\n')
      events.push({ event: name, data: joined, json: parseJson(joined) })
    }
    name = undefined
    data = undefined
  }
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch()
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') {
      data ??= []
      data.push(value)
    } else if (field === 'event') name = value
  }
  dispatch()
  return events
}

function ndjsonEvents(text: string): StreamEvent[] {
  const events: StreamEvent[] = []
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue
    events.push({ event: undefined, data: line, json: parseJson(line) })
  }
  return events
}

// SSE when the first line is a field or a comment; NDJSON lines start with `{` or `[`.
function isSse(text: string): boolean {
  return /^\s*(?:data|event|id|retry)?:/.test(text)
}

function parseJson(data: string): unknown {
  const first = data.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  try {
    return JSON.parse(data)
  } catch {
    // Not JSON after all: the event is kept with its raw data.
    return undefined
  }
}

/**
 * The reply that carries a stream's usage, in its format's own shape, parsed by the one stream
 * reader; `undefined` when no event carries any. OpenAI chat: the last chunk with `usage`
 * (`stream_options.include_usage`); Responses: the `response` of `response.completed`; Anthropic:
 * `message_start`'s message with the cumulative usage of the last `message_delta` over it; Gemini:
 * the last chunk with `usageMetadata`; Ollama: the last line with its counts.
 * @internal
 */
export function usageEvent(chunks: readonly { chunk: string }[]): unknown {
  // A stream without a word of usage is not parsed: most judge streams, every replayed one.
  if (!chunks.some(({ chunk }) => /usage|eval_count/i.test(chunk))) return undefined
  const events = streamEvents(chunks)
  const start = events.find((event) => typeOf(event) === 'message_start')
  if (start) return anthropicUsage(start, events)
  for (let i = events.length - 1; i >= 0; i--) {
    const json = events[i]?.json as any
    if (json === null || typeof json !== 'object') continue
    if (json.usage) return json
    if (json.response?.usage) return json.response
    if (json.usageMetadata || json.eval_count !== undefined) return json
  }
  return undefined
}

function typeOf(event: StreamEvent): string | undefined {
  return event.event ?? (event.json as { type?: string } | undefined)?.type
}

function anthropicUsage(start: StreamEvent, events: StreamEvent[]): unknown {
  const message = (start.json as { message?: { usage?: object } } | undefined)?.message
  let usage = { ...message?.usage }
  for (const event of events) {
    const delta = (event.json as { type?: string; usage?: object } | undefined)?.usage
    if (typeOf(event) === 'message_delta' && delta) usage = { ...usage, ...delta }
  }
  return { ...message, usage }
}
