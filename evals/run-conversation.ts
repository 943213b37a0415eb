// A multi-turn row, as one trial runs it: the task once per turn with the conversation so far,
// each turn's reply checked by its own rubric (the turn's `criteria`, the eval's `turnCriteria`),
// the user played by the row's `turns` or by the simulated user until its goal, `stop` or the
// turn limit. What it returns is judged as a whole by the eval's `criteria` and `scorers`.
import { type ConversationMessage, nextUserMessage } from '../src/conversation/simulated-user'
import { UsageError } from '../src/errors'
import { messages as messages_ } from '../src/messages'
import { outputText } from '../src/output'
import type { EvalConversationRecord, EvalTurnRecord } from '../src/records/eval-records'
import type { EvalRow, EvalTurn, SimulatedUserOptions } from './types'

/** Judges one turn's reply; resolves whether every check of the turn passed (none: undefined). @internal */
export type TurnCheck = (
  turn: number,
  user: unknown,
  reply: unknown,
  scripted: EvalTurn | undefined,
) => Promise<boolean | undefined>

/** A conversation held: its messages and its record. @internal */
export interface HeldConversation {
  messages: ConversationMessage[]
  /** Each turn's reply, as the task returned it. */
  replies: unknown[]
  record: EvalConversationRecord
}

const DEFAULT_MAX_TURNS = 5

/**
 * The most a row's simulated user may cost, whatever `maxTurns` says: calls, and bytes of
 * conversation sent to it over the row (each call resends the conversation so far, so a user that
 * never stops grows its cassette quadratically). The conversation ends at whichever comes first,
 * as at `maxTurns` (`ended: 'limit'`), so a user that never says `done` cannot run away. @internal
 */
export const SIMULATED_USER_LIMITS = { calls: 50, bytes: 1_000_000 } as const

/** Hold the conversation of one row. A task or simulated-user error rejects. @internal */
export async function holdConversation(
  row: EvalRow,
  task: (row: EvalRow, conversation: unknown) => unknown,
  simulated: SimulatedUserOptions | undefined,
  check: TurnCheck,
  signal?: AbortSignal | undefined,
): Promise<HeldConversation> {
  const messages: ConversationMessage[] = []
  const replies: unknown[] = []
  const turns: EvalTurnRecord[] = []
  const scripted = row.turns
  if (
    scripted !== undefined &&
    (!Array.isArray(scripted) ||
      scripted.length === 0 ||
      !scripted.every((turn) => typeof turn === 'object' && turn !== null && 'input' in turn))
  ) {
    throw new UsageError(messages_.evalBadTurns(scripted))
  }
  const maxTurns = scripted ? scripted.length : (simulated?.maxTurns ?? DEFAULT_MAX_TURNS)
  const persona =
    simulated === undefined
      ? ''
      : typeof simulated.instructions === 'function'
        ? simulated.instructions(row)
        : simulated.instructions
  let simulatedUserCalls = 0
  let sentBytes = 0
  let ended: EvalConversationRecord['ended'] = scripted ? 'script' : 'max-turns'
  for (let turn = 1; turn <= maxTurns; turn++) {
    // A row past its timeout has failed: its conversation makes no call after that.
    signal?.throwIfAborted()
    let user: unknown
    const fromScript = scripted?.[turn - 1]
    if (fromScript) user = fromScript.input
    else if (turn === 1 && row.input !== undefined) user = row.input
    else {
      const bytes = conversationBytes(messages)
      if (
        simulatedUserCalls >= SIMULATED_USER_LIMITS.calls ||
        sentBytes + bytes > SIMULATED_USER_LIMITS.bytes
      ) {
        ended = 'limit'
        break
      }
      simulatedUserCalls++
      sentBytes += bytes
      const next = await nextUserMessage({
        model: simulated?.model,
        persona,
        goal: row.goal,
        messages,
      })
      if (next.done) {
        ended = 'goal'
        break
      }
      user = next.message
    }
    messages.push({ role: 'user', content: outputText(user) })
    const reply = await task(row, { turn, input: user, messages: [...messages] })
    messages.push({ role: 'assistant', content: outputText(reply) })
    replies.push(reply)
    const passed = await check(turn, user, reply, fromScript)
    turns.push({
      turn,
      user: outputText(user).slice(0, 200),
      reply: outputText(reply).slice(0, 200),
      ...(passed !== undefined ? { passed } : {}),
      ...(scripted === undefined && !(turn === 1 && row.input !== undefined)
        ? { simulated: true }
        : {}),
    })
    if (!scripted && simulated?.stop?.(messages)) {
      ended = 'stop'
      break
    }
  }
  return {
    messages,
    replies,
    record: {
      turns,
      ended,
      ...(simulatedUserCalls > 0 ? { simulatedUserCalls } : {}),
    },
  }
}

// What a call to the simulated user resends: the conversation so far, in UTF-8 bytes.
function conversationBytes(messages: readonly ConversationMessage[]): number {
  let bytes = 0
  for (const message of messages) bytes += Buffer.byteLength(message.content)
  return bytes
}
