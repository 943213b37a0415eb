// The examples' agents talk to an OpenAI-compatible model through the official SDK, built from
// the environment as in any application. rubricate records and replays these calls (through msw)
// like the judge's, so the tests run offline once the cassettes are committed.
import OpenAI from 'openai'

/** The agents' model. Default `gpt-4.1-mini`; another one changes every agent request. */
export const AGENT_MODEL: string = process.env.EXAMPLES_AGENT_MODEL ?? 'gpt-4.1-mini'

/** One client for every agent, built at module scope as applications usually build it. */
export const openai: OpenAI = new OpenAI({
  // Unset: https://api.openai.com/v1. `npm run examples:record` points it at the reference model.
  baseURL: process.env.OPENAI_BASE_URL,
  // Replayed calls never leave the machine, so a replay needs no key; the SDK insists on one.
  apiKey: process.env.OPENAI_API_KEY ?? 'replay-needs-no-key',
})
