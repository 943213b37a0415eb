// A multi-turn row's conversation as its scorers get it: the messages of every turn, an array as a
// scorer that reads `run.output` as messages expects, marked with the replies the task returned
// turn by turn. Through the mark, the judged text is the whole transcript (not the last reply),
// and the tool calls and results are those of every turn's reply, in order.
import { transcriptLine } from './transcript-lines'

/** One message of a held conversation. @internal */
export interface HeldMessage {
  role: 'user' | 'assistant'
  content: string
}

// Not enumerable and a symbol: a copy, a JSON dump or a scorer's own reading never sees it.
const REPLIES = Symbol.for('rubricate.conversationReplies')

/**
 * The conversation's messages (a user message then its reply, turn by turn), marked with each
 * turn's reply as the task returned it.
 * @internal
 */
export function conversationOutput(
  messages: readonly HeldMessage[],
  replies: readonly unknown[],
): HeldMessage[] {
  const list = messages.map((message) => ({ ...message }))
  Object.defineProperty(list, REPLIES, { value: [...replies], enumerable: false })
  return list
}

/** The task's reply of each turn, when `value` is a conversation's output. @internal */
export function conversationReplies(value: unknown): readonly unknown[] | undefined {
  if (!Array.isArray(value)) return undefined
  const replies = (value as unknown as { [REPLIES]?: unknown })[REPLIES]
  return Array.isArray(replies) ? replies : undefined
}

/**
 * A conversation as a judge reads it: one JSON line per message, `{"turn":1,"speaker":"user",
 * "text":"..."}`, so that nothing a reply says can open a turn or name a speaker (its line breaks
 * and quotes are escaped inside its `text`). @internal
 */
export function conversationTranscript(messages: readonly HeldMessage[]): string {
  return messages
    .map((message, index) =>
      transcriptLine({
        turn: Math.floor(index / 2) + 1,
        speaker: message.role,
        text: message.content,
      }),
    )
    .join('\n')
}
