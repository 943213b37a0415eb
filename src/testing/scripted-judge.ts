import { CASSETTE_AWARE, type CompleteInCall } from '../judge/cassette-bridge'
import { judgeCallScope } from '../judge/judge-call-scope'
import { messages } from '../messages'
import type { JudgeCompleteOptions, JudgeModel, JudgeReply, JudgeRequest } from '../records/records'

/**
 * One scripted answer: a string is the reply's text as it is (malformed JSON included), an object
 * or array is sent as JSON, an `Error` is thrown by `complete()`.
 */
export type ScriptedReply = string | Error | Record<string, unknown> | unknown[]

/** Computes the answer to one judge request; `index` counts calls from 0. */
export type ScriptedReplyFunction = (
  request: JudgeRequest,
  index: number,
) => ScriptedReply | Promise<ScriptedReply>

/** Options of {@link scriptedJudge}. */
export interface ScriptedJudgeOptions {
  /** The model id recorded in judge calls. Default `'scripted-judge'`. */
  id?: string | undefined
}

/** A judge model answering from a script, with a log of the requests it received. */
export interface ScriptedJudge extends JudgeModel {
  /** Every request received so far, in order. */
  readonly requests: JudgeRequest[]
}

/**
 * A {@link JudgeModel} that answers from a list (call `i` gets entry `i`) or a function, with no
 * HTTP and no cassettes: for testing scorers and rubrics without a server.
 *
 * @example
 * const judge = scriptedJudge([{ criteria: { c1: { reasoning: 'Greets the user.', satisfied: true } }, overallAssessment: 'Fine.' }])
 * const result = await createRubricScorer({ judge, criteria: '- Greets the user' }).run({ output: 'Hello!' })
 */
export function scriptedJudge(
  script: ScriptedReply[] | ScriptedReplyFunction,
  options: ScriptedJudgeOptions = {},
): ScriptedJudge {
  const requests: JudgeRequest[] = []
  const answer: ScriptedReplyFunction =
    typeof script === 'function'
      ? script
      : (_request, index) =>
          index < script.length
            ? (script[index] as ScriptedReply)
            : new Error(messages.scriptedJudgeExhausted(script.length, index))
  // Told of the call it serves, as `cached()` is: the script is the recording, so nothing goes
  // to the cassettes, but each answer counts as a live model call.
  const inCall: CompleteInCall = async (request, _options, call) => {
    const index = requests.length
    requests.push(request)
    call.onLiveRequest()
    call.onExchange({ source: 'live' })
    const reply = await answer(request, index)
    if (reply instanceof Error) throw reply
    return { text: typeof reply === 'string' ? reply : JSON.stringify(reply) }
  }
  const judge = {
    id: options.id ?? 'scripted-judge',
    requests,
    [CASSETTE_AWARE]: inCall,
    complete: (request: JudgeRequest, options: JudgeCompleteOptions): Promise<JudgeReply> =>
      inCall(request, options, judgeCallScope()),
  }
  return judge
}
