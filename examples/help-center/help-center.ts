import { AGENT_MODEL, openai } from '../openai-client'

/** The help center's articles, one passage each: what the retriever searches. */
export const ARTICLES: readonly string[] = [
  'Refunds: a duplicate charge is refunded to the card you paid with, within 5 to 7 business days.',
  'Lumen Plus costs $4.99 a month and can be cancelled at any time from Settings > Plan.',
  'Deleted photos stay in the bin for 30 days, then they are removed for good.',
  'Shared albums open with a share link; the viewer needs no account.',
  'Photo books are printed in Leipzig and arrive within 5 to 7 business days.',
]

/** The help-center bot's instructions. Its rule in the reference model recognises it by them. */
export const HELP_CENTER_PROMPT = `You answer Lumen customers' questions from the help-center articles below, in one or two sentences. State only what the articles say.`

const STOP_WORDS = new Set([
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
  'my',
  'was',
  'get',
  'when',
  'will',
  'much',
])

/**
 * The articles that share a word with the question, words compared by their first five letters
 * ("refund" finds "refunded"): a toy retriever.
 */
export function retrieve(question: string): string[] {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .match(/[a-z]{4,}/g)
        ?.filter((word) => !STOP_WORDS.has(word))
        .map((word) => word.slice(0, 5)) ?? [],
    )
  const asked = words(question)
  return ARTICLES.filter((article) => [...words(article)].some((word) => asked.has(word)))
}

/** Answer one question from the retrieved articles; returns the answer and what it was built on. */
export async function helpCenterBot(
  question: string,
): Promise<{ answer: string; context: string[] }> {
  const context = retrieve(question)
  const completion = await openai.chat.completions.create({
    model: AGENT_MODEL,
    messages: [
      { role: 'system', content: `${HELP_CENTER_PROMPT}\n\n${context.join('\n')}` },
      { role: 'user', content: question },
    ],
  })
  return { answer: completion.choices[0]?.message.content ?? '', context }
}
