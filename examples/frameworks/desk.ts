// The support desk every framework example runs: one question, one tool, one answer. Each
// framework's test builds the same agent with its own package, so the guide's sections compare.

/** The agent's instructions. The reference model recognises the desk's requests by its tools. */
export const DESK_PROMPT =
  'You are the Halden support desk. Look a ticket up with lookup_ticket before you answer about it.'

/** The customer's question. */
export const QUESTION = 'Is ticket T1 still open?'

/** What `lookup_ticket` returns for T1: the text every example's tool-result assertion expects. */
export const TICKET_T1 = 'T1: open, assigned to Dana'

/** The ticket book the tool reads. A tool's output goes back to the model, so it is fixed. */
const TICKETS: Record<string, string> = { T1: TICKET_T1 }

/** The tool's code: the same in every framework. */
export function lookupTicket(id: string): string {
  return TICKETS[id] ?? `${id}: no such ticket`
}

/** The rubric every example judges the answer by. */
export const CRITERIA = `- Says that ticket T1 is open
- Names who is working on the ticket`
