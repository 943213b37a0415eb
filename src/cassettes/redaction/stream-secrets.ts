import type { SseChunk } from '../store/cassette-entry'
import { streamEvents } from '../store/stream-events'
import type { SecretSet } from './redaction'

/**
 * Where a recorded stream spells out a known secret across its events, if anywhere. A model that
 * echoes a key streams it in token-sized pieces: each event is redacted on its own and no event
 * holds the whole key, yet a replay puts it back together. So the text of each JSON field is
 * joined across the events (`choices[0].delta.content`, the Responses API's `delta`, the
 * `message.content` of Ollama's NDJSON lines, Anthropic's `delta.text`, Gemini's
 * `candidates[0].content.parts[0].text`...), as is the raw stream, and scanned for the
 * secrets this exchange knows of. The generic `sk-...` pattern is left out here: joined fragments
 * of ordinary text would match it by chance.
 * @internal
 */
export function findSecretInStream(
  chunks: readonly SseChunk[],
  set: SecretSet,
): { label: string; path: string } | undefined {
  const raw = chunks.map((chunk) => chunk.chunk).join('')
  const inRaw = knownSecretIn(raw, set)
  if (inRaw) return { label: inRaw, path: 'response.sse' }
  const joined = new Map<string, string>()
  // Each SSE event's data (all its `data:` lines), or each NDJSON line (Ollama's `message.content`).
  for (const { json } of streamEvents(chunks)) if (json !== undefined) collect(json, '', joined)
  for (const [path, text] of joined) {
    const label = knownSecretIn(text, set)
    if (label) return { label, path: `response.sse[*]${path ? `.${path}` : ''}` }
  }
  return undefined
}

function knownSecretIn(text: string, set: SecretSet): string | undefined {
  return set.secrets.find((secret) => text.includes(secret.value))?.label
}

function collect(value: unknown, path: string, joined: Map<string, string>): void {
  if (typeof value === 'string') {
    joined.set(path, (joined.get(path) ?? '') + value)
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, `${path}[${index}]`, joined)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      collect(member, path ? `${path}.${key}` : key, joined)
    }
  }
}
