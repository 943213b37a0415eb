// The reference model's rules for the help-center examples: the bot's answers, the embeddings, and
// the grounding and preference judges, each deciding from words the texts share.
import { fakeReply } from 'rubricate/testing'
import { agentRule, type ExampleRules, type ModelRequest } from '../reference-model/rules'
import { HELP_CENTER_PROMPT } from './help-center'

const ANSWERS: [RegExp, string][] = [
  [
    /charged twice/,
    'A duplicate charge is refunded to the card you paid with, within 5 to 7 business days.',
  ],
  [/deleted photos/i, 'Deleted photos stay in the bin for 30 days.'],
  [
    /Lumen Plus/,
    'Lumen Plus costs $4.99 a month and can be cancelled at any time from Settings > Plan.',
  ],
  // Says more than the article: the failing example's unsupported claim.
  [
    /photo book/i,
    'Photo books arrive within 5 to 7 business days, and shipping is free worldwide.',
  ],
]

const STOP = new Set([
  'the',
  'and',
  'for',
  'you',
  'are',
  'how',
  'what',
  'does',
  'with',
  'can',
  'was',
  'get',
  'then',
  'they',
  'from',
  'within',
  'when',
])

// Words of four letters or more, by their first five ("refund" is "refunded").
function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .match(/[a-z]{4,}/g)
      ?.filter((word) => !STOP.has(word))
      .map((word) => word.slice(0, 5)) ?? []
  )
}

// The text of the fenced block under a heading of the prompt.
function block(prompt: string, heading: string): string {
  const at = prompt.indexOf(heading)
  if (at < 0) return ''
  const match = /\n(`{3,})\n([\s\S]*?)\n\1/.exec(prompt.slice(at))
  return match?.[2] ?? ''
}

const judging = (schema: string) => (request: ModelRequest) => request.schemaName === schema

const rules: ExampleRules = {
  rules: [
    ...ANSWERS.map(([question, answer]) =>
      agentRule({
        name: `help-center bot: ${question}`,
        system: HELP_CENTER_PROMPT,
        user: question,
        reply: answer,
      }),
    ),
    {
      name: 'embeddings',
      match: (request) => request.raw.path.endsWith('/embeddings'),
      reply: () => fakeReply.embedding(),
    },
    {
      // A claim is supported when the context holds every word it is made of.
      name: 'faithfulness judge',
      match: judging('faithfulness'),
      reply: (request) => {
        const context = block(request.user, 'Context (data').toLowerCase()
        const answer = block(request.user, 'Answer to judge')
        const claims = answer
          .split(/(?<=\.)\s+|,\s+and\s+/)
          .map((claim) => claim.replace(/\.$/, '').trim())
          .filter(Boolean)
        return {
          claims: claims.map((claim) => {
            const missing = claim
              .toLowerCase()
              .match(/[a-z]{4,}/g)
              ?.filter((word) => !STOP.has(word) && !context.includes(word.slice(0, 5)))
            if (!missing?.length)
              return { claim, reasoning: 'Every part of it is in the context.', supported: true }
            return missing.length === 0
              ? { claim, reasoning: 'Every part of it is in the context.', supported: true }
              : {
                  claim,
                  reasoning: `The context never mentions "${missing.join('", "')}".`,
                  supported: false,
                }
          }),
        }
      },
    },
    {
      name: 'answer relevance judge',
      match: judging('answer_relevance'),
      reply: (request) => {
        const asked = new Set(words(block(request.user, 'Question (data')))
        const answer = block(request.user, 'Answer to judge')
        return {
          statements: answer
            .split(/(?<=\.)\s+/)
            .filter(Boolean)
            .map((statement) => {
              const relevant = words(statement).some((word) => asked.has(word))
              return {
                statement,
                reasoning: relevant
                  ? 'It speaks to the question.'
                  : 'It does not touch the question.',
                relevant,
              }
            }),
        }
      },
    },
    {
      // Prefers the output that gives a figure (a price, a number of days), wherever it is shown.
      name: 'pairwise preference judge',
      match: judging('pairwise_preference'),
      reply: (request) => {
        const a = /\d/.test(block(request.user, 'Output A'))
        const b = /\d/.test(block(request.user, 'Output B'))
        if (a === b)
          return { reasoning: 'Both give the customer the same to act on.', preferred: 'tie' }
        return {
          reasoning: `Output ${a ? 'A' : 'B'} gives a figure the customer can act on.`,
          preferred: a ? 'A' : 'B',
        }
      },
    },
  ],
}

export default rules
