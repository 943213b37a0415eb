/** One request the fake server received, as logged in `server.requests`. */
export interface FakeRequest {
  /** Order of arrival, from 0. */
  index: number
  method: string
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string
  query: Record<string, string>
  /** Request headers, lower-cased names. */
  headers: Record<string, string>
  bodyText: string
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  body: any
  /**
   * The request asked for a streamed reply: `"stream": true`, or, on Ollama's `/api/chat`, no
   * `"stream": false` (Ollama streams by default).
   */
  stream: boolean
}
