// Structure an agent cannot forge (ARCHITECTURE.md §8): every transcript a judge or the simulated
// user reads (a conversation, a trajectory) is one JSON object per line, one line per message or
// tool call. Whatever an output, a tool's name, its arguments or its result holds sits inside a
// JSON string, where a line break is `\n` and a quote `\"`: it cannot end its line, open a turn,
// name a speaker or add a call. The judge's prompt says so where it shows such a transcript.
/** What a transcript holds, for the judge's note on how to read it. @internal */
export type TranscriptKind = 'conversation' | 'trajectory'

// Line breaks JSON leaves raw (U+2028, U+2029, NEL): escaped too, so no reader sees a new line.
const RAW_BREAKS = /[\u0085\u2028\u2029]/g

/** One line of a transcript: the fields as JSON, on one line whatever they hold. @internal */
export function transcriptLine(fields: Record<string, unknown>): string {
  return JSON.stringify(fields).replace(
    RAW_BREAKS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

const KIND = Symbol.for('rubricate.transcriptKind')

/**
 * A transcript as a judged output: `{ text }` (what `outputText` reads), marked with its kind so
 * the rubric judge is told how to read it. @internal
 */
export function markedTranscript(kind: TranscriptKind, text: string): { text: string } {
  const value = { text }
  Object.defineProperty(value, KIND, { value: kind, enumerable: false })
  return value
}

/** The kind a transcript made by {@link markedTranscript} was marked with. @internal */
export function markedTranscriptKind(value: unknown): TranscriptKind | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const kind = (value as { [KIND]?: unknown })[KIND]
  return kind === 'conversation' || kind === 'trajectory' ? kind : undefined
}
