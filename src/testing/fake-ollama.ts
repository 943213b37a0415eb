import type { FakeTextOptions, FakeUsage } from './fake-reply'

/**
 * Ollama's native chat endpoint (`POST /api/chat`) for the fake server: one JSON object, or (the
 * default, unless the request says `"stream": false`) NDJSON, one object per line, the last with
 * `"done": true` and the counts.
 */

/** What every `/api/chat` object of one reply shares. @internal */
export interface OllamaBase {
  model: string
  /** ISO time. */
  created_at: string
}

/** The whole `/api/chat` reply. @internal */
export function ollamaChat(
  base: OllamaBase,
  content: string,
  usage: FakeUsage,
  options: FakeTextOptions,
): Record<string, unknown> {
  return {
    ...base,
    message: { role: 'assistant', content },
    ...doneFields(usage, options),
  }
}

/** The streamed `/api/chat` reply: NDJSON lines, each ending in `\n`. @internal */
export function ollamaLines(
  base: OllamaBase,
  pieces: string[],
  usage: FakeUsage,
  options: FakeTextOptions,
): string[] {
  const line = (value: object) => `${JSON.stringify(value)}\n`
  const lines = pieces.map((piece) =>
    line({ ...base, message: { role: 'assistant', content: piece }, done: false }),
  )
  lines.push(
    line({
      ...base,
      message: { role: 'assistant', content: '' },
      ...doneFields(usage, options),
    }),
  )
  return lines
}

function doneFields(usage: FakeUsage, options: FakeTextOptions) {
  return {
    done: true,
    done_reason: options.finishReason ?? 'stop',
    total_duration: 1_000_000,
    load_duration: 0,
    prompt_eval_count: usage.prompt_tokens,
    prompt_eval_duration: 500_000,
    eval_count: usage.completion_tokens,
    eval_duration: 500_000,
  }
}
