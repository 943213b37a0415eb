// The reference model's rules for the frameworks guide: the desk of desk.ts, in every protocol the
// frameworks speak. The answer depends only on what the conversation holds, so one function plays
// the model for the OpenAI protocols (Chat Completions, Responses), Anthropic's Messages API,
// Gemini's generateContent and the AI Gateway alike.
import { fakeReply } from 'rubricate/testing'
import { type ExampleRules, whenOutputMatches } from '../reference-model/rules'
import { TICKET_T1 } from './desk'

/** The model's next move at the desk: a tool call, a text, or a structured answer. */
export type DeskMove =
  | { call: { id: string; name: string; args: Record<string, unknown> } }
  | { text: string }
  | { json: Record<string, unknown> }

/** The structured answer of LangGraph's `responseFormat`. */
export const STRUCTURED_T1 = { id: 'T1', status: 'open', assignee: 'Dana' }

/**
 * The desk's next move given a request body in any protocol, or `undefined` when the request is
 * not the desk's (it names neither desk tool).
 */
export function deskMove(body: unknown): DeskMove | undefined {
  const sent = JSON.stringify(body ?? null)
  if (!sent.includes('lookup_ticket') && !sent.includes('close_ticket')) return undefined
  // LangGraph's structured response: a last call with a JSON schema response format.
  if (sent.includes('"response_format"')) return { json: STRUCTURED_T1 }
  if (sent.includes('T1: closed')) return { text: 'Ticket T1 is closed now, as you approved.' }
  if (sent.includes(TICKET_T1)) return { text: 'Ticket T1 is open, and Dana is working on it.' }
  if (/close ticket T1/i.test(sent)) {
    return { call: { id: 'call_close_ticket', name: 'close_ticket', args: { id: 'T1' } } }
  }
  return { call: { id: 'call_lookup_ticket', name: 'lookup_ticket', args: { id: 'T1' } } }
}

/**
 * The tokens a desk reply reports, from the request without the reference model's reply ids
 * (`resp_fake-7`): a Responses request sends earlier items back with their ids, which are numbered
 * across every file recording at once, so counting them would change a reply on each re-record.
 */
function deskUsage(body: unknown) {
  const sent = JSON.stringify(body ?? null).replace(/fake-\d+/g, 'fake-N')
  return { prompt_tokens: Math.ceil(sent.length / 4), completion_tokens: 12 }
}

const rules: ExampleRules = {
  rules: [
    {
      name: 'frameworks desk (OpenAI protocols)',
      // The judge's own requests (a rubric) are never the desk's, whatever the output they show.
      match: (request) =>
        request.schemaName !== 'rubric_verdicts' && deskMove(request.raw.body) !== undefined,
      reply: (request) => {
        const move = deskMove(request.raw.body)
        const usage = deskUsage(request.raw.body)
        if (move === undefined || 'text' in move) return fakeReply.text(move?.text ?? '', { usage })
        if ('json' in move) return fakeReply.json(move.json, { usage })
        const { id, name, args } = move.call
        const toolCalls = [{ id, name, arguments: JSON.stringify(args) }]
        return fakeReply.text('', { toolCalls, usage })
      },
    },
  ],
  criteria: [
    whenOutputMatches(
      'Says that ticket T1 is open',
      /T1 is open|"status":\s*"open"/,
      'The answer never says that ticket T1 is open.',
    ),
    whenOutputMatches(
      'Names who is working on the ticket',
      /Dana/,
      'The answer names nobody working on the ticket.',
    ),
    whenOutputMatches(
      'Confirms that ticket T1 is closed',
      /T1 is closed/,
      'The answer never confirms that ticket T1 was closed.',
    ),
  ],
}

export default rules
